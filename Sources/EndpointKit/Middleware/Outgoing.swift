import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as it leaves the middleware chain for the transport: its body in `httpBody`, or in a
/// file the transport uploads.
struct Outgoing: Sendable {
    var request: URLRequest
    var bodyFile: URL?
    /// A file the body was written to for this attempt (a stream a middleware made), deleted with it.
    var keeper: TemporaryFile?

    /// The size of the body, in memory or on disk.
    var bodySize: Int64 {
        if let bytes = request.httpBody { return Int64(bytes.count) }
        return bodyFile.flatMap(MessageBody.size(ofFileAt:)) ?? 0
    }

    /// The request and body the middlewares passed on, checked: headers must follow the same rules
    /// as an endpoint's own, and the body is `body`, which `httpBody` must agree with unless a
    /// middleware changed the body (then `httpBody` follows it). A middleware that set `httpBody`
    /// without passing the body on is refused: the middlewares further in would not have seen it.
    /// `preparedBytes` is the body RequestBuilder made, when it is in memory.
    static func checked(_ request: URLRequest, body: MessageBody?, preparedBytes original: Data?) async throws -> Outgoing {
        try MiddlewareChain.validate(request)
        var request = request
        let sent = request.httpBody
        let bytes: Data? = if case .data(let bytes) = body { bytes } else { nil }
        if sent != bytes {
            // `httpBody` may differ from the body only where a middleware passed another body on.
            guard sent == original else { throw conflict(request) }
            request.httpBody = bytes
        }
        guard case .stream(let stream) = body else { return Outgoing(request: request, bodyFile: nil, keeper: nil) }
        if let file = stream.file { return Outgoing(request: request, bodyFile: file.url, keeper: nil) }
        let spooled = try await spool(stream, for: request)
        return Outgoing(request: request, bodyFile: spooled.url, keeper: spooled)
    }

    /// Writes a stream a middleware made to a temporary file, which transports upload from.
    private static func spool(_ stream: ByteStream, for request: URLRequest) async throws -> TemporaryFile {
        guard stream.owner.claim() else {
            throw EndpointError(
                kind: .invalidRequest, endpoint: ResponseDecoder.label(for: request),
                reason: "a middleware passed a request body stream that was already sent or read; a stream from the network is read once, so a body sent again (a retry) must be .data or ByteStream(contentsOf:)",
                request: request)
        }
        let file = try TemporaryFile()
        let handle = try FileHandle(forWritingTo: file.url)
        defer { try? handle.close() }
        for try await chunk in stream {
            try handle.write(contentsOf: chunk)
        }
        return file
    }

    private static func conflict(_ request: URLRequest) -> EndpointError {
        EndpointError(
            kind: .invalidRequest, endpoint: ResponseDecoder.label(for: request),
            reason: "a middleware set the request's httpBody without passing that body to next; pass it as next(request, .data(bytes)), so that the middlewares further in see it too",
            request: request)
    }
}
