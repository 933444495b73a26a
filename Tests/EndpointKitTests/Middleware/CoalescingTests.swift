import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Coalescing decided per server and per endpoint, in memory, with a transport that holds every
/// request until the test lets it answer.
@Suite struct CoalescingTests {
    /// Holds requests until `open()`; counts them, and the ones cancelled while held.
    final class HeldTransport: HTTPTransport {
        private struct State {
            var requests = 0
            var cancelled = 0
            var open = false
            var held: [CheckedContinuation<Void, Never>] = []
        }
        private let state = Locked(State())
        var requests: Int { state.value.requests }
        var cancelled: Int { state.value.cancelled }

        func open() {
            let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.held = [] }
                return state.held
            }
            for continuation in held { continuation.resume() }
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            state.withLock { $0.requests += 1 }
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.held.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
            if Task.isCancelled {
                state.withLock { $0.cancelled += 1 }
                throw CancellationError()
            }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            return (Data(#"{"name":"ana"}"#.utf8), response)
        }
    }

    struct User: Decodable, Sendable, Equatable { let name: String }

    struct CurrentUser: Endpoint {
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = User
    }

    struct SharedUser: Endpoint {
        static var coalescesIdenticalRequests: Bool? { true }
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = User
    }

    struct UnsharedUser: Endpoint {
        static var coalescesIdenticalRequests: Bool? { false }
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = User
    }

    func calls<E: Endpoint>(_ count: Int, of endpoint: E, on server: Server, transport: HeldTransport, expecting requests: Int) async throws -> [E.ReturnPayloadType] {
        let tasks = (0..<count).map { _ in Task { try await endpoint.call(on: server) } }
        // Every call is either held in the transport (`requests` of them) or, when fewer requests
        // than calls are expected, waiting for the shared one.
        try await waitUntil("the calls are held") { transport.requests + server.coalescer.waiting >= requests + (requests < count ? count : 0) }
        transport.open()
        var results: [E.ReturnPayloadType] = []
        for task in tasks { results.append(try await task.value) }
        return results
    }

    @Test func `an endpoint opts in on a server that does not coalesce, and out on one that does`() async throws {
        let transport = HeldTransport()
        var server = Server(origin: URL(string: "https://api.example.com")!, transport: transport)
        #expect(try await calls(5, of: SharedUser(), on: server, transport: transport, expecting: 1) == Array(repeating: User(name: "ana"), count: 5))
        #expect(transport.requests == 1)

        let second = HeldTransport()
        server = Server(origin: URL(string: "https://api.example.com")!, transport: second)
        server.coalescesIdenticalRequests = true
        #expect(try await calls(5, of: UnsharedUser(), on: server, transport: second, expecting: 5).count == 5)
        #expect(second.requests == 5)
    }

    @Test func `when every caller leaves, the shared request is cancelled and the next call starts afresh`() async throws {
        let transport = HeldTransport()
        var server = Server(origin: URL(string: "https://api.example.com")!, transport: transport)
        server.coalescesIdenticalRequests = true
        let tasks = (0..<3).map { _ in Task { [server] in try await CurrentUser().call(on: server) } }
        try await waitUntil("3 calls share a held request") { server.coalescer.waiting == 3 && transport.requests == 1 }
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        #expect(server.coalescer.waiting == 0)
        transport.open()
        try await waitUntil("the shared request ends cancelled") { transport.cancelled == 1 }
        #expect(try await CurrentUser().call(on: server) == User(name: "ana"))
        #expect(transport.requests == 2)
    }
}

/// Polls `condition` until it holds, failing after `seconds` (a hang the test reports, rather
/// than one that stops the run).
private func waitUntil(_ what: String, within seconds: Double = 20, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try await !condition() {
        guard Date() < deadline else {
            Issue.record("still waiting after \(seconds) s until \(what)")
            throw CancellationError()
        }
        try await Task.sleep(nanoseconds: 2_000_000)
    }
}
