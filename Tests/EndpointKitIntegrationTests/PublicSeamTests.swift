#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// This target imports EndpointKit without `@testable` and uses no `package` declarations: what
// compiles here uses public API only (the EndpointKitAsyncHTTPClient package compiles it too).

/// A throttle of requests in flight, as `Throttle` is written, from public API only: it queues
/// calls in order, and takes the time a call queued off the attempt's time
/// (`MiddlewareContext.timeRemaining`, `NextStep.withTimeRemaining`), as the built-in does.
private struct InFlightLimit: EndpointMiddleware {
    final class Gate: Sendable {
        private struct State {
            var running = 0
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        private let limit: Int
        private let state = Mutex(State())

        init(limit: Int) { self.limit = limit }

        func enter() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard state.running < limit else { state.waiting.append(continuation); return false }
                    state.running += 1
                    return true
                }
                if now { continuation.resume() }
            }
        }

        var waiting: Int { state.withLock { $0.waiting.count } }

        func leave() {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else { state.running -= 1; return nil }
                return state.waiting.removeFirst()  // its place passes on
            }
            next?.resume()
        }
    }

    let gate: Gate

    init(maximumInFlight: Int) { gate = Gate(limit: maximumInFlight) }

    func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        let started = DispatchTime.now().uptimeNanoseconds
        let timeout = context.timeRemaining
        await gate.enter()
        defer { gate.leave() }
        let waited = TimeInterval(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return try await next.withTimeRemaining(timeout.map { max($0 - waited, 0.001) })(request, body)
    }
}

/// A lock around a value (the standard library's `Mutex` needs iOS 18).
private final class Mutex<Value>: @unchecked Sendable {
    // `lock` guards `value`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Answers each request once the test lets it go, and keeps what it saw.
private final class HeldTransport: HTTPTransport {
    struct Seen: Sendable {
        let path: String
        let timeRemaining: TimeInterval?
        let credentials: CredentialNames
    }

    private let state = Mutex((seen: [Seen](), held: [CheckedContinuation<Void, Never>](), inFlight: 0, mostInFlight: 0))
    var seen: [Seen] { state.withLock { $0.seen } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    var heldCount: Int { state.withLock { $0.held.count } }

    func releaseAll() {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        held.forEach { $0.resume() }
    }

    func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                state.seen.append(Seen(path: request.url?.path ?? "", timeRemaining: context.timeRemaining, credentials: context.credentials))
                state.inFlight += 1
                state.mostInFlight = max(state.mostInFlight, state.inFlight)
                state.held.append(continuation)
            }
        }
        state.withLock { $0.inFlight -= 1 }
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        return (.data(Data("{}".utf8)), response)
    }
}

/// Records where in the chain a middleware's transport hooks run.
private struct Hooked: EndpointMiddleware {
    let events: Mutex<[String]>

    func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        events.withLock { $0.append("enter, credentials \(context.credentials.headers.sorted())") }
        let answer = try await next.withTransportHooks(
            beforeSending: { [events] request in events.withLock { $0.append("before sending \(request.value(forHTTPHeaderField: "X-Key") ?? "-")") } },
            answered: { [events] response in events.withLock { $0.append("answered \(response.statusCode)") } }
        )(request, body)
        events.withLock { $0.append("returned") }
        return answer
    }
}

/// Logs the credentials registered before it, as `RequestLogger` redacts them.
private struct CredentialProbe: EndpointMiddleware {
    let events: Mutex<[String]>

    func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        let shown = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { name, value in
            "\(name): \(context.credentials.containsHeader(name) ? "<redacted>" : value)"
        }
        events.withLock { $0.append("probe " + shown.joined(separator: ", ")) }
        return try await next(request, body)
    }
}

@Suite struct PublicSeamTests {
    struct Item: Endpoint {
        let endpoint = Restful(.get, "items/{id}")
        let id: Int
        typealias ReturnPayloadType = EmptyPayload
        static var timeout: TimeInterval? { 30 }
    }

    static func server(_ transport: some HTTPTransport, _ middlewares: [any EndpointMiddleware]) -> APIServer {
        var server = APIServer(origin: URL(string: "https://api.test")!, transport: transport)
        server.middlewares = middlewares
        return server
    }

    /// Waits until `condition` holds, for at most 20 s (a hang, not a slow machine, fails it).
    func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<2000 where !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(condition())
    }

    @Test func `a throttle written outside the module queues calls in order and takes the wait off their time`() async throws {
        let transport = HeldTransport()
        let limit = InFlightLimit(maximumInFlight: 1)
        let server = Self.server(transport, [limit])
        let first = Task { try await Item(id: 1).call(on: server) }
        try await eventually { transport.heldCount == 1 }
        let second = Task { try await Item(id: 2).call(on: server) }
        try await eventually { limit.gate.waiting == 1 }
        try await Task.sleep(nanoseconds: 300_000_000)  // the second waits at least this long
        #expect(transport.seen.count == 1)
        transport.releaseAll()
        try await eventually { transport.heldCount == 1 }
        transport.releaseAll()
        _ = try await (first.value, second.value)
        #expect(transport.seen.map(\.path) == ["/api/v1/items/1", "/api/v1/items/2"])
        #expect(transport.mostInFlight == 1)
        let firstTime = try #require(transport.seen[0].timeRemaining), secondTime = try #require(transport.seen[1].timeRemaining)
        #expect(firstTime > 25 && firstTime <= 30)
        #expect(secondTime <= 29.7)  // 30 s less the 0.3 s or more it queued
    }

    @Test func `transport hooks run as the request leaves and as its answer arrives, and credentials are readable`() async throws {
        let events = Mutex<[String]>([])
        let transport = HeldTransport()
        let server = Self.server(transport, [
            Hooked(events: events),
            APIKeyAuthorization(header: "X-Key", value: "secret"),
            CredentialProbe(events: events),
        ])
        let call = Task { try await Item(id: 1).call(on: server) }
        try await eventually { transport.heldCount == 1 }
        events.withLock { $0.append("transport") }
        transport.releaseAll()
        _ = try await call.value
        #expect(events.withLock { $0 } == [
            "enter, credentials []",
            "probe Accept: application/json, User-Agent: EndpointKit/0.1, X-Key: <redacted>",
            "before sending secret",
            "transport",
            "answered 200",
            "returned",
        ])
        #expect(transport.seen.first?.credentials == CredentialNames(headers: ["x-key"]))
    }
}
#endif
