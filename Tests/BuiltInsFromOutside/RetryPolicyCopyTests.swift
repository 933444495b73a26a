import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// `RetryPolicy.swift` is a link to the library's own file, as `Throttle.swift` is: a second
// built-in middleware compiled from outside the module, with no `package` declaration in reach.

/// The copy of `RetryPolicy` at work, as the built-in is tested.
@Suite struct RetryPolicyCopyTests {
    struct Status: Endpoint {
        var endpoint: Restful { Restful(.get, "status") }
        typealias ReturnPayloadType = [String: Int]
    }

    struct Post: Endpoint {
        var endpoint: Restful { Restful(.post, "posts") }
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Answers each request with the next of `answers` (status, `Retry-After`), then 200 with
    /// `{"attempts": N}`; counts what it received.
    final class Script: HTTPTransport {
        private let state: Locked<(answers: [(Int, String?)], received: Int)>

        init(_ answers: [(Int, String?)]) {
            state = Locked((answers: answers, received: 0))
        }

        var received: Int { state.withLock { $0.received } }

        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            let (status, retryAfter, count) = state.withLock { state -> (Int, String?, Int) in
                state.received += 1
                let next = state.answers.isEmpty ? (200, nil) : state.answers.removeFirst()
                return (next.0, next.1, state.received)
            }
            let headers = ["Content-Type": "application/json"].merging(retryAfter.map { ["Retry-After": $0] } ?? [:]) { a, _ in a }
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            return (.data(Data(#"{"attempts":\#(count)}"#.utf8)), response)
        }
    }

    func server(_ policy: RetryPolicy, _ script: Script) -> APIServer {
        var server = APIServer(origin: URL(string: "https://api.test")!, transport: script)
        server.middlewares = [policy]
        return server
    }

    @Test func `the copy is this target's own type, not the library's`() {
        #expect(ObjectIdentifier(RetryPolicy.self) != ObjectIdentifier(EndpointKit.RetryPolicy.self))
    }

    @Test func `a GET answered 503 is sent again, waiting as Retry-After says, in seconds or as a date`() async throws {
        let script = Script([(503, "0"), (503, "Sun, 06 Nov 1994 08:49:37 GMT")])  // a date long past: no wait
        let payload = try await Status().call(on: server(RetryPolicy(initialDelay: 30), script))
        #expect(payload == ["attempts": 3])
        #expect(script.received == 3)
    }

    @Test func `the last answer comes back once the attempts are spent`() async throws {
        let script = Script([(503, "0"), (503, "0"), (503, "0")])
        let error = await #expect(throws: EndpointError.self) { try await Status().call(on: server(RetryPolicy(maximumAttempts: 2), script)) }
        #expect(error?.statusCode == 503)
        #expect(script.received == 2)
    }

    @Test func `a POST is not sent again`() async throws {
        let script = Script([(503, "0")])
        let error = await #expect(throws: EndpointError.self) { try await Post().call(on: server(RetryPolicy(), script)) }
        #expect(error?.statusCode == 503)
        #expect(script.received == 1)
    }

    @Test func `a negative delay is refused before anything is sent`() async throws {
        let script = Script([])
        let error = await #expect(throws: EndpointError.self) { try await Status().call(on: server(RetryPolicy(initialDelay: -1), script)) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.reason == "the RetryPolicy cannot be used: initialDelay is -1.0; give a number of seconds zero or more")
        #expect(script.received == 0)
    }
}
