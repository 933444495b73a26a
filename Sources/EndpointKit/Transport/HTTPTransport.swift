import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request and returns the response: the one seam between EndpointKit and an HTTP stack.
///
/// EndpointKit builds the `URLRequest` (URL, method, headers), the body and the
/// ``TransportContext``, and decodes what comes back; a transport only moves bytes. The default is
/// ``URLSessionTransport``; `EndpointKitTesting`'s `StubTransport` answers from stubs, and the
/// `EndpointKitAsyncHTTPClient` package sends over SwiftNIO. Conform your own type to serve canned
/// answers in unit tests, or to use another HTTP client:
///
/// ```swift
/// struct CannedTransport: HTTPTransport {
///     func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
///         let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil,
///                                        headerFields: ["Content-Type": "application/json"])!
///         return (.data(Data(#"{"balance":200}"#.utf8)), response)
///     }
/// }
/// let server = APIServer(origin: URL(string: "https://example.com")!, transport: CannedTransport())
/// ```
///
/// The request body is `body` only: the request's `httpBody` is empty. A body is
/// ``MessageBody/data(_:)``, or ``MessageBody/stream(_:)``: a file's contents (its
/// ``ByteStream/fileURL`` says which file, to upload from) or a stream a middleware made.
///
/// The answer is ``MessageBody/data(_:)`` or, as it arrives, ``MessageBody/stream(_:)``
/// (``ByteStream/makeStream(bufferingUpTo:idleTimeout:onCancel:)`` makes one). EndpointKit reads a
/// stream whole when the call does not stream (``TransportContext/streamsResponse``) or the status
/// is not 2xx, and fails the call past ``TransportContext/maximumResponseSize``.
///
/// A transport reports a failed exchange by throwing (a `URLError`, say); EndpointKit wraps it in
/// an ``EndpointError`` of kind ``EndpointError/Kind/transportFailed``, and a ``TransportRefusal``
/// in the kind it names. It reports cancellation of the calling task by throwing
/// `CancellationError`. Any HTTP status is a response, not an error. EndpointKit cancels an
/// attempt at its ``TransportContext/deadline`` and reports the timeout itself.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` and returns the response's body and head.
    ///
    /// ```swift
    /// let (body, response) = try await transport.send(request, body: .data(json), context: context)
    /// ```
    func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse)
}

extension URLSession: HTTPTransport {
    /// Sends `request` with `data(for:)`, or `upload(for:fromFile:)` for a body on disk; a body a
    /// middleware streamed is read into memory first.
    ///
    /// A bare `URLSession` ignores the context's limits, and on Linux it keeps
    /// swift-corelibs-foundation's traps (a 401 Basic challenge hangs, 307/308 redirects drop
    /// bodies); prefer ``URLSessionTransport``.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        let answer: (Data, URLResponse)
        switch body {
        case .stream(let stream) where stream.file != nil:
            answer = try await upload(for: request, fromFile: stream.file!.url)
        case .some(let body):
            request.httpBody = try await body.collect(upTo: .max)
            answer = try await data(for: request)
        case nil:
            answer = try await data(for: request)
        }
        guard let http = answer.1 as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (.data(answer.0), http)
    }
}
