import EndpointKit
import EndpointKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Coalescing decided per server and per endpoint, in memory, with a transport that holds every
/// request until the test lets it answer.
@Suite struct CoalescingTests {
    /// Holds requests until `open()`; counts them, and the ones cancelled while held.
    final class HeldTransport: WholeRequestTransport {
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
        static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = true } }
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = User
    }

    struct UnsharedUser: Endpoint {
        static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = false } }
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = User
    }

    func calls<E: Endpoint>(
        _ count: Int, of endpoint: E, on server: APIServer, sharing coalescing: RequestCoalescing, transport: HeldTransport, expecting requests: Int
    ) async throws -> [E.ReturnPayloadType] {
        let tasks = (0..<count).map { _ in Task { try await endpoint.call(on: server) } }
        // Every call is either held in the transport (`requests` of them) or, when fewer requests
        // than calls are expected, waiting for the shared one.
        try await waitUntil("the calls are held") { transport.requests + coalescing.waiting >= requests + (requests < count ? count : 0) }
        transport.open()
        var results: [E.ReturnPayloadType] = []
        for task in tasks { results.append(try await task.value) }
        return results
    }

    func server(_ transport: HeldTransport, _ middlewares: [any EndpointMiddleware]) -> APIServer {
        var server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport)
        server.middlewares = middlewares
        return server
    }

    @Test func `identical GETs in flight share one request and each caller gets the payload`() async throws {
        let transport = HeldTransport()
        let coalescing = RequestCoalescing()
        let users = try await calls(20, of: CurrentUser(), on: server(transport, [coalescing]), sharing: coalescing, transport: transport, expecting: 1)
        #expect(users == Array(repeating: User(name: "ana"), count: 20))
        #expect(transport.requests == 1)
    }

    @Test func `an endpoint opts in where coalescing is not the default, and out where it is`() async throws {
        let transport = HeldTransport()
        let optIn = RequestCoalescing(byDefault: false)
        #expect(try await calls(5, of: SharedUser(), on: server(transport, [optIn]), sharing: optIn, transport: transport, expecting: 1)
            == Array(repeating: User(name: "ana"), count: 5))
        #expect(transport.requests == 1)

        let second = HeldTransport()
        #expect(try await calls(5, of: CurrentUser(), on: server(second, [optIn]), sharing: optIn, transport: second, expecting: 5).count == 5)
        #expect(second.requests == 5)

        let third = HeldTransport()
        let everyGET = RequestCoalescing()
        #expect(try await calls(5, of: UnsharedUser(), on: server(third, [everyGET]), sharing: everyGET, transport: third, expecting: 5).count == 5)
        #expect(third.requests == 5)
    }

    /// README's pacing setup: coalescing after authorization and before the Throttle. Before it was
    /// a middleware, coalescing happened at the end of the chain, where the Throttle let identical
    /// calls arrive four at a time: 13 requests for 50 calls.
    @Test func `behind README's Throttle, fifty identical GETs take one place and send one request`() async throws {
        let transport = HeldTransport()
        let coalescing = RequestCoalescing()
        let api = server(transport, [
            RetryPolicy(),
            RateLimitPolicy(maximumWait: 30),
            HTTPBearerAuthorization(token: "t"),
            coalescing,
            Throttle(requests: 10, per: 1, maximumInFlight: 4),
        ])
        let users = try await calls(50, of: CurrentUser(), on: api, sharing: coalescing, transport: transport, expecting: 1)
        #expect(users.count == 50)
        #expect(transport.requests == 1)
    }

    @Test func `two users never share an answer: credentials are part of what must match`() async throws {
        let transport = HeldTransport()
        let coalescing = RequestCoalescing()
        let alice = server(transport, [HTTPBearerAuthorization(token: "alice"), coalescing])
        var bob = alice
        bob.middlewares[0] = HTTPBearerAuthorization(token: "bob")
        let tasks = [Task { [alice] in try await CurrentUser().call(on: alice) }, Task { [bob] in try await CurrentUser().call(on: bob) }]
        try await waitUntil("both requests are held") { transport.requests == 2 }
        transport.open()
        for task in tasks { #expect(try await task.value == User(name: "ana")) }
    }

    @Test func `when every caller leaves, the request is cancelled and the next call starts afresh`() async throws {
        let transport = HeldTransport()
        let coalescing = RequestCoalescing()
        let server = server(transport, [coalescing])
        let tasks = (0..<3).map { _ in Task { [server] in try await CurrentUser().call(on: server) } }
        try await waitUntil("3 calls share a held request") { coalescing.waiting == 3 && transport.requests == 1 }
        for task in tasks { task.cancel() }
        transport.open()  // the held request sees its cancellation
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        #expect(coalescing.waiting == 0)
        #expect(transport.cancelled == 1)
        #expect(try await CurrentUser().call(on: server) == User(name: "ana"))
        #expect(transport.requests == 2)
    }

    /// The request runs on behalf of every caller waiting for it (issue 53): the first caller
    /// leaving neither cancels it nor has it sent again.
    @Test func `when the caller that started the request leaves, it goes on for the rest and is sent once`() async throws {
        let transport = HeldTransport()
        let coalescing = RequestCoalescing()
        let server = server(transport, [coalescing])
        let first = Task { [server] in try await CurrentUser().call(on: server) }
        try await waitUntil("the first call's request is held") { transport.requests == 1 }
        let others = (0..<4).map { _ in Task { [server] in try await CurrentUser().call(on: server) } }
        try await waitUntil("4 calls wait for it") { coalescing.waiting == 5 }
        first.cancel()
        transport.open()
        await #expect(throws: CancellationError.self) { try await first.value }
        for task in others { #expect(try await task.value == User(name: "ana")) }
        #expect(transport.requests == 1)
        #expect(transport.cancelled == 0)
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
