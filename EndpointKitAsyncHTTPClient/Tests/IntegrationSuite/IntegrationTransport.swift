import EndpointKit
import EndpointKitAsyncHTTPClient
import Foundation

/// The transport EndpointKit's integration suite calls through when this package runs it: the
/// suite's files are reached through the `Suite` link, with the root's `IntegrationTransport.swift`
/// left out for this one. Tests of URLSession itself name `URLSessionTransport` and stay on it.
enum IntegrationTransport {
    /// The transport's type name, for messages.
    static let name = "AsyncHTTPClientTransport"

    /// Whether a streamed answer is read ahead of a loop that reads slowly: AsyncHTTPClientTransport reads only as fast as the loop, so the server waits.
    static let readsStreamsAhead = false

    /// Whether every byte that arrived before a connection broke reaches the reader before the
    /// error: AsyncHTTPClient drops what it holds for a loop that reads more slowly than the body arrives, so a resumed download asks for more of it again.
    static let keepsAllBeforeACut = false

    /// One transport for the whole test process, as an app would keep.
    static let shared: any HTTPTransport = AsyncHTTPClientTransport.shared

    /// A transport of its own (its own connection pool) for a test that must not share one.
    static func make(maximumRedirects: Int = 10) -> any HTTPTransport {
        AsyncHTTPClientTransport(redirectPolicy: RedirectPolicy(maximumRedirects: maximumRedirects))
    }
}
