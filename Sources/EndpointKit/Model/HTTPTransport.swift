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
