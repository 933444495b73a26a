import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a streaming call's live body waits while the 2xx head travels back out through the
/// middlewares, which see an empty body: middlewares keep their one signature, and still add
/// headers, refresh tokens and retry before the stream starts.
///
/// A middleware that sends the request again (a retry, a token refresh) replaces the body kept
/// here; the one replaced is dropped, which closes its connection.
final class StreamHandoff: Sendable {
    private let latest = Locked<(stream: ByteStream, response: HTTPURLResponse)?>(nil)

    func keep(_ stream: ByteStream, for response: HTTPURLResponse) {
        let replaced = latest.withLock { latest in
            defer { latest = (stream, response) }
            return latest
        }
        _ = replaced  // released here, outside the lock: its connection closes
    }

    /// The body of `response`, if it is the answer the transport streamed (a middleware may have
    /// answered with a body of its own, from a cache, say).
    func take(for response: HTTPURLResponse) -> ByteStream? {
        let kept = latest.withLock { latest in
            defer { latest = nil }
            return latest
        }
        guard let kept, kept.response === response else { return nil }
        return kept.stream
    }
}
