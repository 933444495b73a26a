import Foundation

/// A request's or a response's body as a middleware sees it: bytes in memory, or a stream.
///
/// A request body is ``data(_:)`` (the same bytes as the request's `httpBody`) or, for a multipart
/// body with files on disk, ``stream(_:)``: a stream that reads the file as it is sent, and reads
/// it again from its start for a retry. A response body is ``data(_:)``, or ``stream(_:)`` for
/// the 2xx answer of a call that streams (a `ServerSentEvents`, `JSONLines` or `ByteStream`
/// payload, or a download): those bytes reach the caller as they arrive, so a middleware that
/// reads them takes them from the caller.
///
/// ```swift
/// struct SmallBodyCache: EndpointMiddleware {
///     let store: @Sendable (Data, URL) -> Void
///
///     func intercept(
///         _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
///     ) async throws -> (MessageBody, HTTPURLResponse) {
///         let (answer, response) = try await next(request, body)
///         if case .data(let bytes) = answer, response.statusCode == 200, let url = request.url {
///             store(bytes, url)  // a stream is not stored: its bytes are the caller's
///         }
///         return (answer, response)
///     }
/// }
/// ```
public enum MessageBody: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// Bytes read as they come: from the network for a response, from a file for a request.
    case stream(ByteStream)

    /// The size in bytes, when it is known without reading: the data's count or the size of the
    /// file a request stream reads; `nil` for a stream from the network.
    ///
    /// ```swift
    /// if let size = body?.count { print("sending \(size) bytes") }
    /// ```
    public var count: Int64? {
        switch self {
        case .data(let data): Int64(data.count)
        case .stream(let stream): stream.file.flatMap { Self.size(ofFileAt: $0.url) }
        }
    }

    /// The size of the file at `url`, when it can be read.
    static func size(ofFileAt url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64
    }

    /// All the bytes, failing once they pass `limit`. Reading a network stream consumes it: pass
    /// the bytes on as ``data(_:)`` afterwards.
    ///
    /// ```swift
    /// let bytes = try await answer.collect(upTo: 1 << 20)
    /// return (.data(bytes), response)
    /// ```
    public func collect(upTo limit: Int) async throws -> Data {
        switch self {
        case .data(let data):
            guard data.count <= limit else { throw TransportRefusal.tooLarge(limit: limit, response: nil) }
            return data
        case .stream(let stream):
            return try await stream.collect(upTo: limit)
        }
    }
}
