// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation

/// The transport this suite calls through.
///
/// The root package runs the suite over `URLSessionTransport`. The `EndpointKitAsyncHTTPClient`
/// package compiles these same files, with its own `IntegrationTransport.swift` in place of this
/// one, so the whole suite runs over `AsyncHTTPClientTransport` as well. Tests of URLSession itself
/// (its configuration, its cookie jar, `URLSession` used as a transport) name `URLSessionTransport`
/// and run over it in both packages.
enum IntegrationTransport {
    /// The transport's type name, for messages.
    static let name = "URLSessionTransport"

    /// Whether a streamed answer is read ahead of a loop that reads slowly: URLSessionTransport reads it all, keeping what the loop has not read in memory and then on disk.
    static let readsStreamsAhead = true

    /// Whether every byte that arrived before a connection broke reaches the reader before the
    /// error: URLSessionTransport hands on all of it.
    static let keepsAllBeforeACut = true

    /// One transport for the whole test process, as an app would keep.
    static let shared: any HTTPTransport = URLSessionTransport.shared

    /// A transport of its own (its own connections) for a test that must not share them.
    static func make(maximumRedirects: Int = 10) -> any HTTPTransport {
        URLSessionTransport(maximumRedirects: maximumRedirects)
    }
}
#endif
