import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
import Testing

private struct BuyCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "purchase_cheer", version: 2) }
    let identifier: String
    struct ReturnPayloadType: Codable, Sendable { let balance: Int }
}

private struct ScoreFeed: Endpoint {
    let endpoint = Restful(.get, "scores/live")
    struct Score: Decodable, Sendable { let home: Int }
    typealias ReturnPayloadType = ServerSentEvents<Score>
}

/// One stable name per operation: errors, the OpenAPI document and tool names all derive from it.
@Suite struct OperationIDTests {
    private func server(_ configure: (StubTransport) -> Void) -> APIServer {
        let stubs = StubTransport()
        configure(stubs)
        return APIServer(origin: URL(string: "https://api.example.com")!, transport: stubs)
    }

    @Test func `every failure of a call names its operation by the endpoint's type`() async throws {
        let refused = server { $0.on(BuyCheer.self, .status(404)) }
        let status = await #expect(throws: EndpointError.self) { try await BuyCheer(identifier: "a").call(on: refused) }
        #expect(status?.operationID == "BuyCheer")
        #expect(status?.route == "POST /api/v2/purchase_cheer")  // the human text stays

        let garbled = server { $0.on(BuyCheer.self, .json(#"{"balance": "many"}"#)) }
        let decoding = await #expect(throws: EndpointError.self) { try await BuyCheer(identifier: "a").call(on: garbled) }
        #expect(decoding?.kind == .decodingFailed && decoding?.operationID == "BuyCheer")

        let download = await #expect(throws: EndpointError.self) { try await BuyCheer(identifier: "a").download(on: refused) }
        #expect(download?.operationID == "BuyCheer")

        let stream = server { $0.on(ScoreFeed.self, .events([ServerSentEvent(data: "not json")])) }
        let element = await #expect(throws: EndpointError.self) {
            for try await _ in try await ScoreFeed().call(on: stream) {}
        }
        #expect(element?.operationID == "ScoreFeed")

        let tools = EndpointTools([BuyCheer.self], on: refused)
        let toolError = await #expect(throws: EndpointError.self) { try await tools.call(name: "buy_cheer", arguments: "{}") }
        #expect(toolError?.kind == .invalidToolCall && toolError?.operationID == "BuyCheer")
    }

    @Test func `the document's operationId and the tool's name derive from the same name`() throws {
        let document = try OpenAPIDocument(title: "T", version: "1", servers: [], endpoints: [BuyCheer.self])
        #expect(String(decoding: document.json(), as: UTF8.self).contains(#""operationId":"buyCheer""#))
        #expect(EndpointTools([BuyCheer.self]).names == ["buy_cheer"])
    }

    @Test func `an error made outside a call has no operation`() {
        #expect(EndpointError(kind: .transportFailed, route: "GET /me", reason: "offline").operationID == nil)
    }
}
