import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request and returns the response: the one seam between EndpointKit and an HTTP stack.
///
/// EndpointKit builds the `URLRequest` (URL, method, headers, body) and decodes what comes back;
/// a transport only moves bytes. The default is ``URLSessionTransport``. Conform your own type to
/// serve canned answers in unit tests, or to use another HTTP client.
///
/// ```swift
/// struct CannedTransport: HTTPTransport {
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil,
///                                        headerFields: ["Content-Type": "application/json"])!
///         return (Data(#"{"balance":200}"#.utf8), response)
///     }
/// }
/// let server = Server(origin: URL(string: "https://example.com")!, transport: CannedTransport())
/// ```
///
/// A transport reports a failed exchange by throwing (a `URLError`, say); EndpointKit wraps it in
/// an ``EndpointError`` of kind ``EndpointError/Kind/transportFailed``. It reports cancellation
/// of the calling task by throwing `CancellationError`. Any HTTP status is a response, not an error.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response body and metadata.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Sends `request` with the contents of `file` as its body: a multipart body with files on
    /// disk, which EndpointKit streams to a temporary file first.
    ///
    /// The default implementation maps the file into memory as the request's `httpBody` and calls
    /// ``send(_:)``, which suits in-memory test transports; ``URLSessionTransport`` streams the file.
    func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse)

    /// Sends `request`, made for a call of `endpoint`: the hook for transports that answer by
    /// endpoint rather than by URL, such as `StubTransport`. `bodyFile`, when not `nil`, holds
    /// the body (a multipart body with files on disk).
    ///
    /// EndpointKit calls this method for every attempt of a call. The default implementation
    /// forgets the endpoint: it calls ``upload(_:fromFile:)`` when there is a body file and
    /// ``send(_:)`` otherwise. A transport that wraps another forwards it, so that the inner one
    /// still sees the endpoint:
    ///
    /// ```swift
    /// func send<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (Data, HTTPURLResponse) {
    ///     try await inner.send(request, bodyFile: bodyFile, for: endpoint)
    /// }
    /// ```
    func send<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (Data, HTTPURLResponse)

    /// Sends `request`, made for a call of `endpoint`, and returns as soon as the response's status
    /// and headers have arrived, with the body as a ``ByteStream`` that yields each chunk as it
    /// comes: the path of streamed payloads (``ServerSentEvents``, ``JSONLines``, ``ByteStream``)
    /// and downloads.
    ///
    /// The default implementation waits for the whole body with
    /// ``send(_:bodyFile:for:)`` and streams it as one chunk, so every transport can serve
    /// streamed endpoints; ``URLSessionTransport`` streams for real, and `StubTransport` streams
    /// its `StubAnswer/chunks(_:interval:status:headers:)`. A transport of your own streams by
    /// returning a ``ByteStream`` made from an async sequence of chunks:
    ///
    /// ```swift
    /// func stream<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (ByteStream, HTTPURLResponse) {
    ///     let (chunks, response) = try await client.open(request)
    ///     return (ByteStream(chunks), response)
    /// }
    /// ```
    func stream<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (ByteStream, HTTPURLResponse)
}

extension HTTPTransport {
    /// Sends the file's contents as `httpBody` with ``send(_:)``.
    ///
    /// ```swift
    /// let (body, response) = try await transport.upload(request, fromFile: fileURL)
    /// ```
    public func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.httpBody = try Data(contentsOf: file, options: .alwaysMapped)
        return try await send(request)
    }

    /// Sends `request` with ``upload(_:fromFile:)`` when there is a body file, with ``send(_:)``
    /// otherwise; the endpoint is not used.
    ///
    /// ```swift
    /// let (body, response) = try await transport.send(request, bodyFile: nil, for: Me())
    /// ```
    public func send<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (Data, HTTPURLResponse) {
        if let bodyFile {
            return try await upload(request, fromFile: bodyFile)
        }
        return try await send(request)
    }

    /// Waits for the whole response with ``send(_:bodyFile:for:)`` and returns its body as a
    /// stream of one chunk.
    ///
    /// ```swift
    /// let (body, response) = try await transport.stream(request, bodyFile: nil, for: Me())
    /// ```
    public func stream<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (ByteStream, HTTPURLResponse) {
        let (data, response) = try await send(request, bodyFile: bodyFile, for: endpoint)
        return (ByteStream(data), response)
    }
}

extension URLSession: HTTPTransport {
    /// Sends `request` with `data(for:)`.
    ///
    /// On Linux a bare `URLSession` keeps swift-corelibs-foundation's traps (a 401 Basic challenge
    /// hangs, 307/308 redirects drop bodies); prefer ``URLSessionTransport``.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}
