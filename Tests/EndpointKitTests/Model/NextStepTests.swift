@testable import EndpointKit
import EndpointKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `next` is a value: what a middleware registers on a copy holds for the calls made through that
/// copy, and for no other call, whenever it is made.
@Suite struct NextStepTests {
    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Calls the rest of the chain three times: through a copy with a credential and a shorter
    /// time, through `next` as it came, and through the copy again from a task of its own.
    struct Registering: EndpointMiddleware {
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            let registered = next.withCredential(header: "X-Proof").withTimeRemaining(5).withTimeRemaining(50)
            _ = try await registered(request, body)
            _ = try await next(request, body)
            return try await Task { try await registered(request, body) }.value
        }
    }

    /// Notes what each call it sees was handed.
    final class Probe: EndpointMiddleware {
        let seen = Locked<[(headers: [String], time: TimeInterval?)]>([])

        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            seen.withLock { $0.append((context.credentials.headers.filter { $0.hasPrefix("x-") }.sorted(), context.timeRemaining)) }
            return try await next(request, body)
        }
    }

    @Test func `a registration holds for the copy it was made on, and only for it`() async throws {
        let probe = Probe()
        var server = APIServer.stub(RecordingTransport())
        server.timeout = 30
        server.middlewares = [Registering(), probe]
        try await Ping().call(on: server)
        let seen = probe.seen.value
        #expect(seen.map(\.headers) == [["x-proof"], [], ["x-proof"]])
        // The copy's 5 s, never lengthened to 50; the plain `next` keeps the call's 30 s.
        let times = seen.map { $0.time ?? -1 }
        #expect(times[0] <= 5 && times[0] > 0 && times[2] <= 5 && times[2] > 0)
        #expect(times[1] > 5 && times[1] <= 30)
    }

    @Test func `a next made for a test calls what it was given`() async throws {
        let next = NextStep { request, body in
            (body ?? .data(Data()), HTTPURLResponse(url: request.url!, statusCode: 201, httpVersion: nil, headerFields: nil)!)
        }
        let (answer, response) = try await next.withCredential(queryParameter: "sig")(URLRequest(url: URL(string: "https://a.test/x")!), .data(Data("hi".utf8)))
        #expect(response.statusCode == 201)
        #expect(try await answer.collect(upTo: 10) == Data("hi".utf8))
        #expect(next.facts.credentials.queryParameters.isEmpty)
        #expect(next.withCredential(queryParameter: "sig").facts.credentials.queryParameters == ["sig"])
    }
}
