import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A circuit breaker compiled outside EndpointKit, and an endpoint that opts out of it through its
/// options.
@Suite struct CircuitBreakerTests {
    struct Report: Endpoint {
        var endpoint: Restful { Restful(.get, "report") }
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Health: Endpoint {
        var endpoint: Restful { Restful(.get, "health") }
        static var options: EndpointOptions { .init { $0.isGuardedByBreaker = false } }
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Answers every request with `status` and counts them by path.
    final class Counter: HTTPTransport {
        private let paths = Locked<[String]>([])
        let status: Locked<Int>

        init(status: Int) { self.status = Locked(status) }

        var sent: [String] { paths.withLock { $0 } }

        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            paths.withLock { $0.append(request.url?.path ?? "") }
            let code = status.withLock { $0 }
            return (.data(Data()), HTTPURLResponse(url: request.url!, statusCode: code, httpVersion: "HTTP/1.1", headerFields: [:])!)
        }
    }

    func server(_ breaker: CircuitBreaker, _ counter: Counter) -> APIServer {
        var server = APIServer(origin: URL(string: "https://api.test")!, pathPrefix: "", transport: counter)
        server.middlewares = [breaker]
        return server
    }

    @Test func `three failures open it: a guarded call then fails with nothing sent, an endpoint that opts out is still sent`() async throws {
        let counter = Counter(status: 503)
        let api = server(CircuitBreaker(threshold: 3, cooldown: 3600), counter)
        for _ in 0..<3 {
            await #expect(throws: EndpointError.self) { try await Report().call(on: api) }
        }
        let refused = await #expect(throws: EndpointError.self) { try await Report().call(on: api) }
        #expect(refused?.reason == "the circuit breaker is open after 3 failures in a row; nothing was sent")
        #expect(counter.sent == ["/report", "/report", "/report"])
        counter.status.withLock { $0 = 200 }
        try await Health().call(on: api)
        #expect(counter.sent.last == "/health")
        #expect(counter.sent.count == 4)
    }

    @Test func `an opted-out endpoint's failures do not count, and a success closes the count`() async throws {
        let counter = Counter(status: 503)
        let api = server(CircuitBreaker(threshold: 2, cooldown: 3600), counter)
        await #expect(throws: EndpointError.self) { try await Report().call(on: api) }
        for _ in 0..<5 {
            await #expect(throws: EndpointError.self) { try await Health().call(on: api) }
        }
        counter.status.withLock { $0 = 204 }
        try await Report().call(on: api)  // one failure before: still closed, and now reset
        counter.status.withLock { $0 = 503 }
        await #expect(throws: EndpointError.self) { try await Report().call(on: api) }
        await #expect(throws: EndpointError.self) { try await Report().call(on: api) }
        #expect(counter.sent.filter { $0 == "/report" }.count == 4)
    }

    @Test func `after the cooldown one trial is sent, and a failed trial opens it again`() async throws {
        let counter = Counter(status: 503)
        let api = server(CircuitBreaker(threshold: 1, cooldown: 0), counter)
        await #expect(throws: EndpointError.self) { try await Report().call(on: api) }
        await #expect(throws: EndpointError.self) { try await Report().call(on: api) }  // the trial: sent, failed
        #expect(counter.sent.count == 2)
        counter.status.withLock { $0 = 204 }
        try await Report().call(on: api)
        #expect(counter.sent.count == 3)
    }
}
