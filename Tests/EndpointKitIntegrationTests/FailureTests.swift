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

/// Failures from a real server: each is a typed error that names what went wrong, promptly.
@Suite struct FailureTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    @Test(arguments: [404, 422, 500, 503])
    func `a non-2xx status throws with the status and the body`(status: Int) async throws {
        let body = #"{"error":"nope \#(status)"}"#
        let error = try await #require(throws: EndpointError.self) {
            try await Respond<Balance>(status: status, type: "application/json", body: body)
                .call(on: loopback.server())
        }
        #expect(error.kind == .unacceptableStatus)
        #expect(error.statusCode == status)
        #expect(error.responseBody == Data(body.utf8))
        #expect(error.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(error.description.hasPrefix("GET /respond: the server answered \(status) "))
        #expect(error.description.hasSuffix("Response body (\(body.utf8.count) bytes): \(body)"))
    }

    @Test func `an HTML page for a JSON endpoint is an unexpected content type`() async throws {
        let page = "<html><body>Maintenance</body></html>"
        let error = try await #require(throws: EndpointError.self) {
            try await Respond<Balance>(status: 200, type: "text/html; charset=utf-8", body: page)
                .call(on: loopback.server())
        }
        #expect(error.kind == .unexpectedContentType)
        #expect(error.statusCode == 200)
        #expect(error.responseBody == Data(page.utf8))
        #expect(error.description.contains("the server answered 200 OK with Content-Type text/html; charset=utf-8, but "))
    }

    @Test func `JSON of the wrong shape names the missing key and keeps the body`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await Respond<Balance>(status: 200, type: "application/json", body: #"{"credits":5}"#)
                .call(on: loopback.server())
        }
        #expect(error.kind == .decodingFailed)
        guard case .keyNotFound(let key, _) = try #require(error.decodingError) else {
            Issue.record("expected keyNotFound, got \(String(describing: error.decodingError))")
            return
        }
        #expect(key.stringValue == "balance")
        #expect(error.responseBody == Data(#"{"credits":5}"#.utf8))
        #expect(error.description.contains(#"the key "balance" is missing at the top level"#))
    }

    struct Protected: Endpoint {
        var endpoint: Restful { Restful(.get, "basic-auth") }
        typealias ReturnPayloadType = Balance
    }

    @Test func `a 401 with a Basic challenge returns promptly as a 401`() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let error = try await #require(throws: EndpointError.self) {
            try await Protected().call(on: loopback.server())
        }
        #expect(clock.now - started < .seconds(20))  // the trap: a hang forever
        #expect(error.kind == .unacceptableStatus)
        #expect(error.statusCode == 401)
        #expect(error.response?.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="tests""#)
    }

    struct Problem: Decodable, Sendable, Equatable { let error: String }

    @Test func `a 401 with a Basic challenge keeps its body and typed error payload`() async throws {
        var server = loopback.server()
        server.errorPayloadType = Problem.self
        let error = try await #require(throws: EndpointError.self) { try await Protected().call(on: server) }
        #expect(error.statusCode == 401)
        #expect(error.responseBody == Data(#"{"error":"credentials required"}"#.utf8))
        #expect(error.errorPayload(as: Problem.self) == Problem(error: "credentials required"))
    }

    struct Slow: Endpoint {
        var endpoint: Restful { Restful(.get, "slow") }
        let seconds: Double
        var key = UUID().uuidString
        typealias ReturnPayloadType = Balance
    }

    /// Returns once the server is answering `call` (slowly), so that a cancel lands mid-request.
    func waitUntilServing(_ call: Slow) async throws {
        while try await Concurrency(key: call.key).call(on: loopback.server()).max == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func `cancelling the task cancels the request within a second`() async throws {
        let server = loopback.server()
        let clock = ContinuousClock()
        let slow = Slow(seconds: 30)
        let call = Task { try await slow.call(on: server) }
        try await waitUntilServing(slow)
        let cancelled = clock.now
        call.cancel()
        let result = await call.result
        let elapsed = clock.now - cancelled
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(elapsed < .seconds(10), "took \(elapsed) after cancel()")  // the server answers after 30 s
    }

    @Test func `a plain URLSession transport also reports cancellation as CancellationError`() async throws {
        let session = URLSession(configuration: .ephemeral)
        let server = loopback.server(transport: session)
        // 60 s: the cancel must come before the answer, and in CI the test process once took
        // more than 10 s between seeing the request at the server and cancelling it.
        let slow = Slow(seconds: 60)
        let call = Task { try await slow.call(on: server) }
        try await waitUntilServing(slow)
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        session.finishTasksAndInvalidate()
    }

    @Test func `the resource timeout bounds the whole exchange`() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = 1
        let server = loopback.server(transport: URLSessionTransport(configuration: configuration))
        let clock = ContinuousClock()
        let started = clock.now
        let error = try await #require(throws: EndpointError.self) {
            try await Slow(seconds: 30).call(on: server)
        }
        #expect(clock.now - started < .seconds(15))  // the deadline is 1 s, the server 30 s
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test func `connection refused is a transport failure naming the endpoint`() async throws {
        let closedPort = try ClosedPort.find()
        let server = APIServer(origin: URL(string: "http://127.0.0.1:\(closedPort)")!, pathPrefix: "/api/v{version}", transport: IntegrationTransport.shared)
        let error = try await #require(throws: EndpointError.self) {
            try await Slow(seconds: 0).call(on: server)
        }
        #expect(error.kind == .transportFailed)
        #expect(error.statusCode == nil)
        #expect((error.underlyingError as? URLError)?.code == .cannotConnectToHost)
        #expect(error.description.hasPrefix("GET /api/v1/slow: the request failed: "))
    }
}
#endif
