// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Bodies that would exhaust memory and servers that would hold a call forever.
@Suite struct LimitTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    struct Big: Endpoint {
        var endpoint: Restful { Restful(.get, "big") }
        let mb: Int
        typealias ReturnPayloadType = Data
    }

    struct LargeExport: Endpoint {
        static var maximumResponseSize: Int? { 40 << 20 }
        var endpoint: Restful { Restful(.get, "big") }
        let mb: Int
        typealias ReturnPayloadType = Data
    }

    @Test func `an endpoint may allow more than the server`() async throws {
        let body = try await LargeExport(mb: 20).call(on: loopback.server())
        #expect(body.count == 20 << 20)
        #expect(body.allSatisfy { $0 == 0 })
    }

    @Test func `a custom transport's oversized body fails the same way`() async throws {
        var server = loopback.server(transport: URLSession(configuration: .ephemeral))
        server.maximumResponseSize = 1000
        let error = try await #require(throws: EndpointError.self) { try await Big(mb: 1).call(on: server) }
        #expect(error.kind == .responseTooLarge)
    }

    // MARK: - Deadlines

    struct Trickle: Endpoint {
        var endpoint: Restful { Restful(.get, "trickle") }
        let every: Double
        let count: Int
        typealias ReturnPayloadType = Data
    }

    @Test func `a server that trickles bytes cannot hold a call past its timeout`() async throws {
        var server = loopback.server(transport: IntegrationTransport.make())
        server.timeout = 1
        let clock = ContinuousClock()
        let started = clock.now
        // One byte every 0.5 s for 60 s: the idle timeout never fires, the call's timeout does.
        let error = try await #require(throws: EndpointError.self) { try await Trickle(every: 0.5, count: 120).call(on: server) }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
        #expect(clock.now - started < .seconds(30), "the trickle would have taken 60 s")
    }

    struct Slow: Endpoint {
        var endpoint: Restful { Restful(.get, "slow") }
        let seconds: Double
        let key: String
        /// The server stops waiting once this many calls for `key` waited at once.
        var until: Int? = nil
        struct ReturnPayloadType: Decodable, Sendable { let slept: Double }
    }

    /// With URLSession's default of 6 connections per host, calls 7 to 30 would wait in its queue
    /// with their clocks running: the server would never hold more than 6 at once.
    @Test func `30 concurrent slow calls are all sent at once`() async throws {
        var server = loopback.server(transport: IntegrationTransport.make())
        server.decoder = APIServer.makeDecoder()
        let api = server
        let key = UUID().uuidString
        let answers = try await withThrowingTaskGroup(of: Double.self) { group in
            // Each call waits on the server until all 30 wait at once (at most 30 s): with 6
            // connections, 6 would wait the full 30 s and the rest would never be there together.
            for _ in 0..<30 { group.addTask { try await Slow(seconds: 30, key: key, until: 30).call(on: api).slept } }
            return try await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: 30, count: 30))
        #expect(try await Concurrency(key: key).call(on: api).max == 30)
    }

    // MARK: - Cut-off bodies

    struct Cut: Endpoint {
        var endpoint: Restful { Restful(.get, "cut") }
        let sent: Int
        let declared: Int
        typealias ReturnPayloadType = Data
    }

    @Test func `a body cut off mid-way is a lost connection`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await Cut(sent: 10, declared: 1000).call(on: loopback.server(transport: IntegrationTransport.make()))
        }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(error.description.contains("the connection was lost"))
    }

    struct FlakyCut: Endpoint {
        var endpoint: Restful { Restful(.get, "flaky-cut/\(key)") }
        let key: String
        @QueryItem var fail: Int
        struct ReturnPayloadType: Decodable, Sendable { let attempts: Int }
        enum CodingKeys: CodingKey { case fail }
    }

    @Test func `a cut-off GET is retried`() async throws {
        var server = loopback.server(transport: IntegrationTransport.make())
        server.middlewares = [RetryPolicy(initialDelay: 0.01, jitter: 0)]
        #expect(try await FlakyCut(key: UUID().uuidString, fail: 1).call(on: server).attempts == 2)
    }
}
#endif
