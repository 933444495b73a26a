import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A middleware that revalidates `GET` answers with `ETag` and `Last-Modified`, in memory: it
/// sends `If-None-Match` / `If-Modified-Since` for what it holds, and turns the server's
/// `304 Not Modified` into the stored answer.
///
/// The payload is decoded as if the server had sent it again, while the server sends only headers;
/// GitHub does not count a 304 against its rate limit.
///
/// ```swift
/// var github = APIServer(origin: URL(string: "https://api.github.com")!, pathPrefix: "")
/// github.middlewares = [HTTPBearerAuthorization(token: token), HTTPCache()]
/// let first = try await GetRepository(owner: "apple", repo: "swift").call(on: github)   // 200, stored
/// let again = try await GetRepository(owner: "apple", repo: "swift").call(on: github)   // 304, from memory
/// ```
///
/// What it keeps and when:
/// - Only `GET` answers with status 200 and an `ETag` or `Last-Modified`, and never one marked
///   `Cache-Control: no-store`. It always asks the server; it never answers by age alone.
///   Streamed answers (``ServerSentEvents``, ``JSONLines``, ``ByteStream``, downloads) pass
///   through: their bodies never sit in memory whole.
/// - Entries are keyed by URL, `Accept` and `Authorization` (a hash of it, not the credential), so
///   one user's answer is never revalidated for another: place it after authorization
///   middlewares. A request that already carries `If-None-Match` or `If-Modified-Since` passes
///   through untouched, and its 304 reaches the endpoint (an optional payload reads it as `nil`).
/// - Bodies count against ``maximumSize``; past it the least recently used entries go, and a body
///   larger than the limit is not kept.
public final class HTTPCache: EndpointMiddleware {
    /// The most body bytes the cache holds.
    public let maximumSize: Int

    /// Stored answers, guarded by the lock.
    private let state = Locked(State())

    private struct State {
        var entries: [Key: Entry] = [:]
        var size = 0
        var clock: UInt64 = 0
    }

    private struct Key: Hashable {
        let url: String
        let accept: String
        let authorization: Int
    }

    private struct Entry {
        let body: Data
        var headers: [String: String]
        let etag: String?
        let lastModified: String?
        var lastUse: UInt64
    }

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let cache = HTTPCache(maximumSize: 4 << 20)  // 4 MiB of bodies
    /// ```
    ///
    /// - Parameter maximumSize: The most body bytes to hold. Defaults to 10 MiB.
    public init(maximumSize: Int = 10 << 20) {
        self.maximumSize = max(maximumSize, 0)
    }

    /// The number of stored answers.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every stored answer, e.g. when the user signs out.
    ///
    /// ```swift
    /// cache.removeAll()
    /// ```
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Adds validators for a stored answer, and turns a `304` into it.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        // A streamed body is the caller's, read as it arrives: there is nothing to keep.
        guard (request.httpMethod ?? "GET") == "GET", !context.streamsResponse, let url = request.url,
              request.value(forHTTPHeaderField: "If-None-Match") == nil,
              request.value(forHTTPHeaderField: "If-Modified-Since") == nil else {
            return try await next(request, body)
        }
        var hasher = Hasher()
        hasher.combine(request.value(forHTTPHeaderField: "Authorization"))
        let key = Key(
            url: url.absoluteString, accept: request.value(forHTTPHeaderField: "Accept") ?? "",
            authorization: hasher.finalize())
        let stored = state.withLock { state -> Entry? in
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return state.entries[key]
        }
        var conditional = request
        if let stored {
            if let etag = stored.etag { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let date = stored.lastModified { conditional.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        }
        let (answer, response) = try await next(conditional, body)
        if response.statusCode == 304, let stored {
            var headers = stored.headers
            for case (let name as String, let value as String) in response.allHeaderFields
            where !Self.bodyHeaders.contains(name.lowercased()) {
                HeaderRules.set(value, for: name, in: &headers)  // RFC 9111 §4.3.4: the 304's headers update the stored ones
            }
            guard let fresh = HTTPURLResponse(url: response.url ?? url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers) else {
                return (answer, response)
            }
            return (.data(stored.body), fresh)
        }
        if response.statusCode == 200, case .data(let bytes) = answer {
            store(bytes, response: response, key: key)
        }
        return (answer, response)
    }

    /// Headers that describe the 304's own (empty) body, not the stored one.
    private static let bodyHeaders: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-type"]

    private func store(_ body: Data, response: HTTPURLResponse, key: Key) {
        let etag = response.value(forHTTPHeaderField: "ETag")
        let lastModified = response.value(forHTTPHeaderField: "Last-Modified")
        let cacheControl = response.value(forHTTPHeaderField: "Cache-Control")?.lowercased() ?? ""
        guard etag != nil || lastModified != nil, !cacheControl.contains("no-store"), body.count <= maximumSize else {
            state.withLock { state in
                if let old = state.entries.removeValue(forKey: key) { state.size -= old.body.count }  // a new answer without validators
            }
            return
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            headers[name] = value
        }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.removeValue(forKey: key) { state.size -= old.body.count }
            state.entries[key] = Entry(body: body, headers: headers, etag: etag, lastModified: lastModified, lastUse: state.clock)
            state.size += body.count
            while state.size > maximumSize, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.size -= oldest.value.body.count
            }
        }
    }
}
