import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A transport compiled outside EndpointKit that hands calls their payload decoded, through
/// `TransportContext.deliver(_:)`, as the library's own stubs do.
@Suite struct DeliveringTransportTests {
    /// A payload that cannot be read from JSON at all: only a delivery can produce one.
    struct Session: Decodable, Sendable {
        let token: String
        init(token: String) { self.token = token }
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never from JSON"))
        }
    }

    struct SignIn: Endpoint {
        var endpoint: Restful { Restful(.post, "sessions") }
        typealias ReturnPayloadType = Session
    }

    struct Count: Endpoint {
        var endpoint: Restful { Restful(.get, "count") }
        typealias ReturnPayloadType = Int
    }

    /// Answers with `status`; delivers `payload` on the attempts listed in `deliversOn` (1-based),
    /// and otherwise sends `body` for the call to decode.
    final class Delivering: HTTPTransport {
        let payload: any Sendable
        let status: Int
        let body: String
        let deliversOn: Set<Int>
        private let attempts = Locked(0)

        init(_ payload: any Sendable, status: Int = 200, body: String = "", deliversOn: Set<Int> = [1]) {
            self.payload = payload
            self.status = status
            self.body = body
            self.deliversOn = deliversOn
        }

        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            let attempt = attempts.withLock { $0 += 1; return $0 }
            if deliversOn.contains(attempt) { context.deliver(payload) }
            let headers = self.body.isEmpty ? [:] : ["Content-Type": "application/json"]
            return (.data(Data(self.body.utf8)), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
        }
    }

    /// Sends every request twice and returns the second answer, as a retry would.
    struct SendsTwice: EndpointMiddleware {
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            _ = try await next(request, body)
            return try await next(request, body)
        }
    }

    func server(_ transport: some HTTPTransport, middlewares: [any EndpointMiddleware] = []) -> APIServer {
        APIServer(origin: URL(string: "https://api.test")!, pathPrefix: "", transport: transport, middlewares: middlewares)
    }

    @Test func `a delivered payload is the call's, with no body read`() async throws {
        let session = try await SignIn().call(on: server(Delivering(Session(token: "t-1"))))
        #expect(session.token == "t-1")
    }

    @Test func `a payload of another type is not taken: the body is decoded`() async throws {
        let count = try await Count().call(on: server(Delivering("not an Int", body: "42")))
        #expect(count == 42)
    }

    @Test func `a delivery with an error status is not the payload`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await SignIn().call(on: server(Delivering(Session(token: "t-1"), status: 503)))
        }
        #expect(error.kind == .unacceptableStatus)
        #expect(error.statusCode == 503)
    }

    @Test func `an earlier attempt's delivery is not a later attempt's`() async throws {
        // The first attempt delivers; the second, whose answer the middleware returns, sends JSON.
        let transport = Delivering(7, body: "42", deliversOn: [1])
        #expect(try await Count().call(on: server(transport, middlewares: [SendsTwice()])) == 42)
        // And the other way round: the second attempt's delivery is the payload.
        let second = Delivering(Session(token: "second"), deliversOn: [2])
        #expect(try await SignIn().call(on: server(second, middlewares: [SendsTwice()])).token == "second")
    }
}
