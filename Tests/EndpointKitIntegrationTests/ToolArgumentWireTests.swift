#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /tool-orders/{key}`: any answer is the echo; what matters is whether it was sent.
private struct CreateOrder: Endpoint, Decodable {
    struct Line: Codable, Sendable { let sku: String; let quantity: Int8 }
    struct Filter: Codable, Sendable { let minPrice: Int? }
    var endpoint: Restful { Restful(.post, "tool-orders/{key}") }
    let key: String
    let items: [Line]
    @QueryItem var filter: Filter?
    struct ReturnPayloadType: Codable, Sendable { let method: String; let target: String; let body: String }
}

@Suite struct ToolArgumentWireTests {
    @Test(arguments: [
        (#"{"items": [{"sku": "a", "quantity": 1}, {"sku": "b", "qty": 1}]}"#, #"unknown field "items[1].qty""#),
        (#"{"items": [], "filter": {"min_prce": 5}}"#, #"unknown field "filter.min_prce""#),
        (#"{"items": [{"sku": "a", "quantity": 1e19}]}"#, #"the field "items[0].quantity" must be an integer between -128 and 127, not 1e19"#),
        (#"{"items": [], "items": []}"#, #"the field "items" appears twice"#),
    ])
    func `arguments refused at any depth send nothing to the server`(arguments: String, message: String) async throws {
        let loopback = try await LoopbackServer.ready()
        // EndpointKit's own coders (snake_case both ways), so that the schema's names are the decoder's.
        let server = APIServer(origin: loopback.origin, pathPrefix: "", transport: IntegrationTransport.shared)
        let key = UUID().uuidString
        let tools = EndpointTools([CreateOrder.self], on: server)
        let withKey = arguments.replacingOccurrences(of: #"{"items""#, with: #"{"key": "\#(key)", "items""#)
        let refused = try await tools.result(name: "create_order", arguments: withKey)
        #expect(refused.isError)
        #expect((refused.error as? EndpointError)?.reason.contains(message) == true, "\(refused.text)")
        #expect(try await Seen(prefix: "/tool-orders/\(key)").call(on: server).paths.isEmpty)
        // The same call with the mistake corrected is sent.
        let accepted = try await tools.result(name: "create_order", arguments: #"{"key": "\#(key)", "items": [{"sku": "a", "quantity": 1}], "filter": {"min_price": 5}}"#)
        #expect(!accepted.isError, "\(accepted.text)")
        #expect(try await Seen(prefix: "/tool-orders/\(key)").call(on: server).paths == ["/tool-orders/\(key)?filter%5Bmin_price%5D=5"])
        #expect(accepted.text.contains(#""target":"/tool-orders/\#(key)?filter%5Bmin_price%5D=5""#), "\(accepted.text)")
    }
}
#endif
