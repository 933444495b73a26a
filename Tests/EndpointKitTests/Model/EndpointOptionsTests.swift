@testable import EndpointKit
import EndpointKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

private enum RetriesKey: EndpointOptionKey {
    static var defaultValue: Int? { 3 }
}

@Suite struct EndpointOptionsTests {
    @Test func `a key not set has its default, one set has its value, whatever the value's type`() {
        var options = EndpointOptions()
        #expect(options[RetriesKey.self] == 3)
        #expect(options.coalescesIdenticalRequests == nil)
        options[RetriesKey.self] = nil
        #expect(options[RetriesKey.self] == nil)  // set to nil: nil, not the default
        options.coalescesIdenticalRequests = false
        #expect(options.coalescesIdenticalRequests == false)
        #expect(EndpointOptions { $0[RetriesKey.self] = 5 }[RetriesKey.self] == 5)
    }

    @Test func `an endpoint's options reach its middlewares' context`() async throws {
        struct Live: Endpoint {
            var endpoint: Restful { Restful(.get, "live") }
            static var options: EndpointOptions { .init { $0[RetriesKey.self] = 0 } }
            typealias ReturnPayloadType = EmptyPayload
        }
        struct Peek: EndpointMiddleware {
            let seen: Locked<[Int?]>
            func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
                seen.withLock { $0.append(context.options[RetriesKey.self]) }
                return try await next(request, body)
            }
        }
        let seen = Locked<[Int?]>([])
        var server = APIServer.stub(RecordingTransport())
        server.middlewares = [Peek(seen: seen)]
        try await Live().call(on: server)
        #expect(seen.value == [0])
    }
}
