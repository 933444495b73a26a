import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// This target imports EndpointKit without `@testable` and uses no `package` declarations. Its
// `Throttle.swift` is a link to the library's own file, so `Throttle` here is a copy of the
// built-in middleware compiled from outside the module: proof that a user could write it.

/// The copy of `Throttle` at work, as the built-in is tested.
@Suite struct ThrottleCopyTests {
    struct Ping: Endpoint {
        var endpoint: Restful { Restful(.get, "ping/{n}") }
        let n: Int
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Answers 204 at once and keeps the paths in the order they arrived.
    final class Recorder: HTTPTransport {
        private let paths = Locked<[String]>([])

        var seen: [String] { paths.withLock { $0 } }

        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            paths.withLock { $0.append(request.url?.path ?? "") }
            return (.data(Data()), HTTPURLResponse(url: request.url!, statusCode: 204, httpVersion: "HTTP/1.1", headerFields: [:])!)
        }
    }

    func server(_ throttle: Throttle, _ recorder: Recorder) -> APIServer {
        var server = APIServer(origin: URL(string: "https://api.test")!, transport: recorder)
        server.middlewares = [throttle]
        return server
    }

    /// Polls `condition` every 10 ms, for up to 20 s.
    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let start = Date()
        while !condition() {
            if Date().timeIntervalSince(start) > 20 { Issue.record("never: \(what)"); return }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    @Test func `the copy is this target's own type, not the library's`() {
        #expect(ObjectIdentifier(Throttle.self) != ObjectIdentifier(EndpointKit.Throttle.self))
    }

    @Test func `queued calls leave in the order they arrived, one per window`() async throws {
        let recorder = Recorder()
        let throttle = Throttle(requests: 1, per: 0.2, maximumInFlight: 1)
        let api = server(throttle, recorder)
        var calls: [Task<Void, any Error>] = []
        for n in 0..<5 {
            calls.append(Task { try await Ping(n: n).call(on: api) })
            try await waitUntil("call \(n) is sent or queued") { recorder.seen.count + throttle.queued == n + 1 }
        }
        for call in calls { try await call.value }
        #expect(recorder.seen == (0..<5).map { "/api/v1/ping/\($0)" })
        #expect(throttle.queued == 0)
    }

    @Test func `a call cancelled in the queue leaves at once and sends nothing`() async throws {
        let recorder = Recorder()
        let throttle = Throttle(requests: 1, per: 60)
        let api = server(throttle, recorder)
        try await Ping(n: 0).call(on: api)
        let queued = Task { try await Ping(n: 1).call(on: api) }
        try await waitUntil("a call is queued") { throttle.queued == 1 }
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }  // not after the 60 s window
        #expect(throttle.queued == 0)
        #expect(recorder.seen == ["/api/v1/ping/0"])
    }

    @Test func `time in the queue counts toward the call's timeout`() async throws {
        let recorder = Recorder()
        let throttle = Throttle(requests: 1, per: 60)
        var api = server(throttle, recorder)
        api.timeout = 0.3
        try await Ping(n: 0).call(on: api)
        let error = await #expect(throws: EndpointError.self) { try await Ping(n: 1).call(on: api) }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        // The built-in's reason also says where the time ran out ("while waiting in the
        // Throttle's queue"): the userInfo key it reads that from is EndpointKit's own.
        #expect(error?.reason.hasPrefix("the request failed: the request timed out") == true, "\(error?.reason ?? "")")
        #expect(recorder.seen == ["/api/v1/ping/0"])
    }

    @Test func `a limit below 1 is refused before anything is sent`() async throws {
        let recorder = Recorder()
        let error = await #expect(throws: EndpointError.self) { try await Ping(n: 0).call(on: server(Throttle(maximumInFlight: 0), recorder)) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.reason == "the Throttle cannot be used: maximumInFlight is 0; give 1 or more")
        #expect(recorder.seen.isEmpty)
    }
}
