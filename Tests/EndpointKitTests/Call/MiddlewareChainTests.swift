@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The middleware chain: order, context, replay, timeouts.
@Suite struct MiddlewareChainTests {
    /// Appends its name to a header on the way out and to a list on the way back.
    struct Tagging: EndpointMiddleware {
        let name: String
        let seen: Locked<[String]>
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            var request = request
            let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," } ?? ""
            request.setValue(trail + name, forHTTPHeaderField: "X-Trail")
            seen.withLock { $0.append("\(name) \(context.operationID) \(context.method) \(context.pathTemplate) v\(context.version) auth=\(context.requiresAuthorization) retry=\(context.isRetryable)") }
            let answer = try await next(request, body)
            seen.withLock { $0.append("back through \(name)") }
            return answer
        }
    }

    struct UploadReport: Endpoint {
        static var requiresAuthorization: Bool { false }
        let endpoint = Restful(.post, "teams/{team}/reports", version: 3)
        let team: String
        let title: String
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `middlewares run in order, the first outermost, and see the endpoint`() async throws {
        let seen = Locked<[String]>([])
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.middlewares = [Tagging(name: "a", seen: seen), Tagging(name: "b", seen: seen)]
        try await UploadReport(team: "core", title: "Q3").call(on: server)
        #expect(try transport.request.value(forHTTPHeaderField: "X-Trail") == "a,b")
        #expect(try transport.request.bodyText == #"{"title":"Q3"}"#)
        #expect(seen.value == [
            "a MiddlewareChainTests.UploadReport POST teams/{team}/reports v3 auth=false retry=false",
            "b MiddlewareChainTests.UploadReport POST teams/{team}/reports v3 auth=false retry=false",
            "back through b", "back through a",
        ])
    }

    /// Answers without calling the transport.
    struct Canned: EndpointMiddleware {
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            (.data(Data(#"{"balance":9}"#.utf8)), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: ["Content-Type": "application/json"])!)
        }
    }

    struct Balance: Endpoint {
        let endpoint = Restful(.get, "balance")
        struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
    }

    @Test func `a middleware can answer without the network`() async throws {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.middlewares = [Canned()]
        #expect(try await Balance().call(on: server).balance == 9)
        #expect(transport.requests.isEmpty)
    }

    /// Sends every request twice.
    struct Twice: EndpointMiddleware {
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            _ = try await next(request, body)
            return try await next(request, body)
        }
    }

    struct Attach: Endpoint {
        let endpoint = Restful(.post, "attach", body: .multipart)
        let file: MultipartFile
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `calling next twice replays the body, including a streamed file`() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).txt")
        try Data("file contents".utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.middlewares = [Twice()]
        try await Attach(file: MultipartFile(contentsOf: source)).call(on: server)
        let bodies = transport.requests.map(\.httpBody)
        #expect(bodies.count == 2)
        #expect(bodies[0] == bodies[1])
        #expect(bodies[0].map { String(decoding: $0, as: UTF8.self).contains("\r\n\r\nfile contents\r\n") } == true)
    }

    struct Failing: EndpointMiddleware {
        let error: any Error
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            throw error
        }
    }

    @Test func `errors thrown by a middleware reach the caller as EndpointError or cancellation`() async throws {
        var server = APIServer.stub(RecordingTransport())
        server.middlewares = [Failing(error: URLError(.notConnectedToInternet))]
        let error = try await #require(throws: EndpointError.self) { try await Balance().call(on: server) }
        #expect(error.kind == .transportFailed)
        server.middlewares = [Failing(error: CancellationError())]
        await #expect(throws: CancellationError.self) { try await Balance().call(on: server) }
    }

    struct Quick: Endpoint {
        static var timeout: TimeInterval? { 0.1 }
        let endpoint = Restful(.get, "quick")
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a server timeout ends a slow attempt, and an endpoint timeout overrides it`() async throws {
        let transport = ScriptedTransport { _, _ in
            try await Task.sleep(nanoseconds: 60_000_000_000)  // a hang, as far as the call is concerned
            return .init()
        }
        var server = APIServer.stub(transport)
        server.timeout = 0.2
        let started = Date()
        let error = try await #require(throws: EndpointError.self) { try await Balance().call(on: server) }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
        #expect(Date().timeIntervalSince(started) < 20)
        server.timeout = 60
        let quickStart = Date()
        await #expect(throws: EndpointError.self) { try await Quick().call(on: server) }
        #expect(Date().timeIntervalSince(quickStart) < 20)
    }

    /// A response that says when it is freed.
    final class TrackedResponse: HTTPURLResponse, @unchecked Sendable {
        var freed: Locked<Bool>?
        deinit { freed?.value = true }
    }

    /// Answers with a fresh `TrackedResponse` that reports to `freed`.
    struct TrackingTransport: WholeRequestTransport {
        let freed: Locked<Bool>
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let response = TrackedResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            response.freed = freed
            return (Data(#"{"balance":1}"#.utf8), response)
        }
    }

    @Test func `a finished answer is freed at once, not kept until the timeout would have fired`() async throws {
        let freed = Locked(false)
        var server = APIServer.stub(TrackingTransport(freed: freed))
        server.timeout = 600
        #expect(try await Balance().call(on: server).balance == 1)
        // The call is over: nothing should hold its answer. Kept until the deadline, it would stay
        // for 600 s; allow a busy machine 20.
        let clock = ContinuousClock()
        let start = clock.now
        while !freed.value && clock.now - start < .seconds(20) { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(freed.value)
    }

    /// Answers after 0.3 s whatever happens meanwhile: a transport that does not stop when its
    /// call is cancelled (corelibs' `URLSession.data(for:)` at times).
    struct Stubborn: HTTPTransport {
        let started: AsyncStream<Void>.Continuation
        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            started.yield()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { done.resume() }
            }
            return (.data(Data(#"{"balance":1}"#.utf8)), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])!)
        }
    }

    @Test(arguments: [true, false])
    func `a call cancelled while its transport goes on ends with CancellationError`(timeout: Bool) async throws {
        let started = AsyncStream<Void>.makeStream()
        var server = APIServer(origin: URL(string: "https://api.test")!, transport: Stubborn(started: started.continuation))
        server.timeout = timeout ? 30 : nil
        let call = Task { [server] in try await Balance().call(on: server) }
        for await _ in started.stream { break }
        call.cancel()
        await #expect(throws: CancellationError.self) { _ = try await call.value }
    }
}
