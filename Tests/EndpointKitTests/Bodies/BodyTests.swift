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

/// POST, PUT and PATCH send their parameters as a JSON body.
@Suite struct BodyTests {
    struct PurchaseCheer: Endpoint {
        let endpoint = Restful(.post, "purchase_cheer", version: 2)
        let identifier: String
        let transactionId: UInt64
        var note: String? = nil
        var purchasedAt: Date? = nil
        struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
    }

    func sent(_ endpoint: some Endpoint, server: (RecordingTransport) -> APIServer = { .stub($0) }) async throws -> URLRequest {
        let transport = RecordingTransport(body: #"{"balance":1}"#)
        _ = try? await endpoint.call(on: server(transport))
        return try transport.request
    }

    @Test func `the body is the struct's properties in snake_case, without the endpoint`() async throws {
        let request = try await sent(PurchaseCheer(identifier: "cheer.1", transactionId: .max))
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.example.com/api/v2/purchase_cheer")
        #expect(request.bodyText == #"{"identifier":"cheer.1","transaction_id":18446744073709551615}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func `dates are ISO-8601 in UTC and escapes survive`() async throws {
        let request = try await sent(PurchaseCheer(
            identifier: "quote\" slash/ é \u{1}", transactionId: 0, note: "line\nbreak",
            purchasedAt: Date(timeIntervalSince1970: 1_700_000_000.75)))
        let decoded = try JSONSerialization.jsonObject(with: try #require(request.httpBody)) as? NSDictionary
        #expect(decoded == [
            "identifier": "quote\" slash/ é \u{1}", "transaction_id": 0, "note": "line\nbreak",
            "purchased_at": "2023-11-14T22:13:20Z",
        ])
    }

    @Test func `the default encoder writes the same bytes apart from key order`() async throws {
        let request = try await sent(PurchaseCheer(identifier: "a", transactionId: 2)) {
            APIServer(origin: URL(string: "https://x.test")!, transport: $0)
        }
        let text = try #require(request.bodyText)
        #expect(text == #"{"identifier":"a","transaction_id":2}"# || text == #"{"transaction_id":2,"identifier":"a"}"#)
    }

    @Test func `an endpoint without parameters sends an empty object`() async throws {
        struct Logout: Endpoint {
            var endpoint: Restful { Restful(.post, "logout") }
            typealias ReturnPayloadType = EmptyPayload
        }
        #expect(try await sent(Logout()).bodyText == "{}")
    }

    @Test func `nested values and custom encodings pass through unchanged`() async throws {
        struct Order: Endpoint {
            var endpoint: Restful { Restful(.put, "orders/{orderID}") }
            let orderID: Int
            let lines: [Line]
            let meta: [String: [Int]]
            struct Line: Encodable, Sendable { let sku: String; let unitCount: Int }
            typealias ReturnPayloadType = EmptyPayload
        }
        let request = try await sent(Order(orderID: 9, lines: [.init(sku: "A", unitCount: 2)], meta: ["k": [1, 2]]))
        #expect(request.url?.path == "/api/v1/orders/9")
        #expect(request.bodyText == #"{"lines":[{"sku":"A","unit_count":2}],"meta":{"k":[1,2]}}"#)
    }

    @Test func `a hand-written encode(to:) is honoured, minus bound keys`() async throws {
        struct Custom: Endpoint {
            var endpoint: Restful { Restful(.patch, "things/{id}") }
            let id: Int
            let label: String
            enum CodingKeys: String, CodingKey { case id, label = "title" }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(label.uppercased(), forKey: .label)
            }
            typealias ReturnPayloadType = EmptyPayload
        }
        let request = try await sent(Custom(id: 4, label: "hi"))
        #expect(request.url?.path == "/api/v1/things/4")
        #expect(request.bodyText == #"{"title":"HI"}"#)
    }

    @Test func `every request asks for JSON and names the client`() async throws {
        let request = try await sent(PurchaseCheer(identifier: "a", transactionId: 1))
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "EndpointKit/0.1")
    }

    @Test func `server headers are sent and may replace Accept`() async throws {
        let request = try await sent(PurchaseCheer(identifier: "a", transactionId: 1)) {
            APIServer(origin: URL(string: "https://x.test")!, transport: $0,
                   headers: ["accept": "application/vnd.api+json", "X-App": "Cheers/1.2"])
        }
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json")
        #expect(request.value(forHTTPHeaderField: "X-App") == "Cheers/1.2")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == nil)
        #expect(request.allHTTPHeaderFields?.count == 3)
    }
}
