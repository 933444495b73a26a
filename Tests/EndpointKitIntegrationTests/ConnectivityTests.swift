// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Waiting for a network: set on Apple platforms, unavailable on Linux, where a request that
/// cannot connect fails at once.
@Suite struct ConnectivityTests {
    struct Ping: Endpoint {
        var endpoint: Restful { Restful(.get, "ping") }
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `the configuration waits on Apple platforms and is the default one on Linux`() {
        let configuration = URLSessionTransport.makeConfiguration(waitingForConnectivityUpTo: 300)
        #expect(configuration.urlCache == nil)
        #expect(configuration.httpMaximumConnectionsPerHost == URLSessionTransport.defaultMaximumConnectionsPerHost)
        #if canImport(FoundationNetworking)
        #expect(configuration.timeoutIntervalForResource == URLSessionTransport.makeConfiguration().timeoutIntervalForResource)
        #else
        #expect(configuration.waitsForConnectivity)
        #expect(configuration.timeoutIntervalForResource == 300)
        #endif
    }

    #if canImport(FoundationNetworking)
    @Test func `on Linux a request that cannot connect fails at once instead of waiting`() async throws {
        let port = try ClosedPort.find()
        let transport = URLSessionTransport(configuration: URLSessionTransport.makeConfiguration(waitingForConnectivityUpTo: 300))
        let server = APIServer(origin: URL(string: "http://127.0.0.1:\(port)")!, transport: transport)
        let started = Date()
        let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .cannotConnectToHost)
        #expect(Date().timeIntervalSince(started) < 60)  // not the 300 s a wait would take
    }
    #endif
}
#endif
