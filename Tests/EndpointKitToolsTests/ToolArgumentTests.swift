@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An order with nested objects, a list of objects, a query object and numbers of every width.
private struct PlaceOrder: Endpoint, Decodable {
    struct Address: Codable, Sendable { let street: String; let zipCode: String }
    struct Line: Codable, Sendable { let sku: String; let quantity: Int8; var price: Double? = nil }
    var endpoint: Restful { Restful(.post, "orders") }
    let shipTo: Address
    let items: [Line]
    let note: String?
    let weight: Float?
    let total: Int?
    typealias ReturnPayloadType = EmptyPayload
}

/// A search whose filter is a query object, and a whole body from one property.
private struct SearchProducts: Endpoint, Decodable {
    struct Filter: Codable, Sendable { let minPrice: Int?; let tags: [String]? }
    var endpoint: Restful { Restful(.get, "products") }
    let filter: Filter
    typealias ReturnPayloadType = EmptyPayload
}

private struct ReplaceManifest: Endpoint, Decodable {
    struct Manifest: Codable, Sendable { let name: String; let layers: [String] }
    var endpoint: Restful { Restful(.put, "manifests/{tag}") }
    let tag: String
    @Body var manifest: Manifest
    typealias ReturnPayloadType = EmptyPayload
}

private struct Tree: Codable, Sendable {
    let name: String
    let children: [Tree]?
}

private struct PlantTree: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "trees") }
    let tree: Tree
    typealias ReturnPayloadType = EmptyPayload
}

/// Readings whose numbers are `Double`s, one nullable.
private struct RecordReadings: Endpoint, Decodable {
    struct Reading: Codable, Sendable { let value: Double; let error: Double? }
    var endpoint: Restful { Restful(.post, "readings") }
    let readings: [Reading]
    typealias ReturnPayloadType = EmptyPayload
}

/// The issue's example of a tool a model calls with arguments that are not JSON.
private struct LookUpCustomer: Endpoint, Decodable {
    enum Order: String, Codable, Sendable, CaseIterable { case newest, oldest }
    var endpoint: Restful { Restful(.get, "customers/{customerId}") }
    let customerId: Int
    let note: String?
    let order: Order?
    let tags: [String]?
    typealias ReturnPayloadType = EmptyPayload
}

private struct Notes: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "notes") }
    typealias ReturnPayloadType = String
}

@Suite struct ToolArgumentTests {
    private func tools() -> (EndpointTools, RecordingTransport) {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([PlaceOrder.self, SearchProducts.self, ReplaceManifest.self, PlantTree.self], on: .stub(transport))
        return (tools, transport)
    }

    static let order = #""ship_to": {"street": "Main 1", "zip_code": "1010"}, "items": [{"sku": "a", "quantity": 1}]"#

    @Test(arguments: [
        // Unknown fields at every depth, named by their path.
        ("place_order", #"{"ship_to": {"street": "Main 1", "zip_cod": "1010"}, "items": []}"#,
         #"unknown field "ship_to.zip_cod"; the fields of "ship_to" are "street", "zip_code""#),
        ("place_order", #"{"ship_to": {"street": "Main 1", "zip_code": "1"}, "items": [{"sku": "a", "quantity": 1}, {"sku": "b", "quantity": 1}, {"sku": "c", "qty": 2}]}"#,
         #"unknown field "items[2].qty"; the fields of "items[2]" are "sku", "quantity""#),
        ("search_products", #"{"filter": {"min_prce": 5}}"#, #"unknown field "filter.min_prce"; the fields of "filter" are "min_price", "tags""#),
        ("replace_manifest", #"{"tag": "v1", "manifest": {"name": "x", "layers": [], "extra": 1}}"#,
         #"unknown field "manifest.extra"; the fields of "manifest" are "name", "layers""#),
        // Keys given twice, at the top and inside.
        ("place_order", #"{"note": "a", "note": "b", \#(order)}"#, #"the field "note" appears twice; send each field once"#),
        ("place_order", #"{"ship_to": {"street": "x", "street": "y", "zip_code": "1"}, "items": []}"#, #"the field "ship_to.street" appears twice"#),
        // Numbers a type cannot hold, named with what the field accepts.
        ("place_order", #"{\#(order), "total": 42.5}"#, #"the field "total" must be an integer between -9223372036854775808 and 9223372036854775807, not 42.5"#),
        ("place_order", #"{\#(order), "total": 99999999999999999999999}"#, #"the field "total" must be an integer between -9223372036854775808 and 9223372036854775807, not 99999999999999999999999"#),
        ("place_order", #"{"ship_to": {"street": "x", "zip_code": "1"}, "items": [{"sku": "a", "quantity": 1e19}]}"#,
         #"the field "items[0].quantity" must be an integer between -128 and 127, not 1e19"#),
        ("place_order", #"{\#(order), "weight": 1e400}"#, #"the field "weight" must be a number between -3.4028235e+38 and 3.4028235e+38, not 1e400"#),
        ("place_order", #"{"ship_to": {"street": "x", "zip_code": "1"}, "items": [{"sku": "a", "quantity": 1, "price": 1e309}]}"#,
         #"the field "items[0].price" must be a number between -1.7976931348623157e+308 and 1.7976931348623157e+308, not 1e309"#),
        ("place_order", #"{\#(order), "weight": 1e-50}"#, #"the field "weight" must be 0 or at least 1.0e-45 in magnitude (smaller rounds to zero), not 1e-50"#),
        ("place_order", #"{\#(order), "note": 5}"#, #"the field "note" must be a string or null, not 5"#),
        // Syntax, with a position; and one object.
        ("place_order", #"{"note": "a" "total": 1}"#, "the arguments are not valid JSON: expected ',' or '}' after a field, at byte 13"),
        ("place_order", "[1]", "the arguments must be one JSON object"),
        ("place_order", "1e400", "the arguments must be one JSON object"),
    ])
    func `arguments are checked against the tool's schema at every depth and nothing is sent`(tool: String, arguments: String, message: String) async throws {
        let (tools, transport) = tools()
        let result = try await tools.result(name: tool, arguments: arguments)
        #expect(result.isError)
        #expect((result.error as? EndpointError)?.kind == .invalidToolCall)
        #expect((result.error as? EndpointError)?.reason.contains(message) == true, "\((result.error as? EndpointError)?.reason ?? result.text)")
        #expect(transport.requests.isEmpty)
    }

    static let customerShape = #"send one JSON object with double-quoted names, such as {"customer_id": integer, "note": string or null, "order": one of "newest", "oldest", null, "tags": array of string or null}; "customer_id" is required"#

    @Test(arguments: [
        ("customer_id=42", "unexpected 'c' where a value should be, at byte 0"),
        ("{'customer_id': 42}", "single quotes where a field name in double quotes should be (JSON takes double quotes), at byte 1"),
        (#"{"customer_id": 'x'}"#, #"single quotes where a value should be (JSON takes double quotes), at byte 16 (in "customer_id")"#),
        ("{customer_id: 42}", "a field name without double quotes, at byte 1"),
        ("{", "the text ends before the object is closed, at byte 1"),
        (#"{"customer_id": 42,}"#, "a comma before '}' (JSON has no trailing commas), at byte 19"),
        (#"{"customer_id": 42} please"#, "there is more after the end of the value, at byte 20"),
        (#"{"customer_id": 42 /* the id */}"#, "a comment where ',' or '}' should be (JSON has none), at byte 19"),
        (#"{/* id */ "customer_id": 42}"#, "a comment where a field name in double quotes should be (JSON has none), at byte 1"),
        (#"{"customer_id": 0x2A}"#, #"a hexadecimal number (JSON numbers are decimal), at byte 17 (in "customer_id")"#),
        ("42", "the arguments must be one JSON object, but they are 42"),
    ])
    func `arguments that are not a JSON object are answered with what to send instead`(arguments: String, problem: String) async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let result = try await EndpointTools([LookUpCustomer.self], on: .stub(transport)).result(name: "look_up_customer", arguments: arguments)
        let reason = try #require((result.error as? EndpointError)?.reason)
        #expect(reason.hasSuffix(problem + "; " + Self.customerShape), "\(reason)")
        #expect(!reason.contains("\n"))
        #expect(transport.requests.isEmpty)
    }

    @Test func `the expected shape of a tool with many fields is cut, and one without fields says so`() {
        let many = JSONValue.object(["type": "object", "properties": .object((1...14).map { .init(key: "f\($0)", value: ["type": "integer"]) })])
        #expect(ArgumentShape.line(for: many).hasSuffix(#""f12": integer, … (2 more)}; every field is optional"#))
        #expect(ArgumentShape.line(for: ["type": "object"]) == "send one JSON object with double-quoted names, such as {}")
        let two: JSONValue = ["type": "object", "properties": ["a": ["type": "string"], "b": ["$ref": "#/$defs/B"]], "required": ["a", "b"]]
        #expect(ArgumentShape.line(for: two) == #"send one JSON object with double-quoted names, such as {"a": string, "b": object}; "a", "b" are required"#)
    }

    /// A JavaScript client turns 1e309 into null (`JSON.stringify(Infinity)`). A `Double`'s
    /// schema excludes the magnitudes that round to zero with a `not`, which null matched: a
    /// nullable `Double` refused null, and a `Double` said "must be 0 or at least 5.0e-324 in
    /// magnitude, not null".
    @Test func `null is a nullable Double's value, and for a Double it is named as the wrong type`() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([RecordReadings.self], on: .stub(transport))
        let refused = try await tools.result(name: "record_readings", arguments: #"{"readings": [{"value": 1, "error": 0.5}, {"value": null}]}"#)
        #expect((refused.error as? EndpointError)?.reason == #"the field "readings[1].value" must be a number, not null"#)
        let tooLarge = try await tools.result(name: "record_readings", arguments: #"{"readings": [{"value": 1e309}]}"#)
        #expect((tooLarge.error as? EndpointError)?.reason
            == #"the field "readings[0].value" must be a number between -1.7976931348623157e+308 and 1.7976931348623157e+308, not 1e309"#)
        #expect(transport.requests.isEmpty)
        let accepted = try await tools.result(name: "record_readings", arguments: #"{"readings": [{"value": 2.5, "error": null}]}"#)
        #expect(!accepted.isError, "\(accepted.text)")
        #expect(String(decoding: try transport.request.httpBody ?? Data(), as: UTF8.self) == #"{"readings":[{"value":2.5}]}"#)
    }

    @Test func `valid arguments at every depth are sent as given`() async throws {
        let (tools, transport) = tools()
        let accepted = try await tools.result(name: "place_order", arguments: #"{\#(Self.order), "total": 1e3, "weight": 2.5}"#)
        #expect(!accepted.isError, "\(accepted.text)")
        #expect(String(decoding: try transport.request.httpBody ?? Data(), as: UTF8.self)
            == #"{"items":[{"quantity":1,"sku":"a"}],"ship_to":{"street":"Main 1","zip_code":"1010"},"total":1000,"weight":2.5}"#)
    }

    @Test func `deep but valid arguments are refused for their depth, with the limit`() async throws {
        let (tools, transport) = tools()
        var tree = #"{"name": "leaf"}"#
        for _ in 0..<70 { tree = #"{"name": "n", "children": [\#(tree)]}"# }
        let result = try await tools.result(name: "plant_tree", arguments: #"{"tree": \#(tree)}"#)
        #expect((result.error as? EndpointError)?.reason == "the arguments are nested more than 64 levels deep; at most 64 levels are accepted")
        #expect(transport.requests.isEmpty)
        var shallow = #"{"name": "leaf"}"#
        for _ in 0..<20 { shallow = #"{"name": "n", "children": [\#(shallow)]}"# }
        #expect(!(try await tools.result(name: "plant_tree", arguments: #"{"tree": \#(shallow)}"#)).isError)
    }

    @Test func `the confirmation sees exactly the arguments that are decoded`() async throws {
        let seen = Locked<[String]>([])
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([PlaceOrder.self], on: .stub(transport)) { call in
            seen.withLock { $0.append(call.arguments) }
            return true
        }
        _ = try await tools.result(name: "place_order", arguments: #"{ "note" : "a\u0062", \#(Self.order) }"#)
        #expect(seen.value == [#"{"note":"ab","ship_to":{"street":"Main 1","zip_code":"1010"},"items":[{"sku":"a","quantity":1}]}"#])
    }

    @Test(arguments: [256, 300, 1000])
    func `error results obey the result limit and stay valid JSON`(limit: Int) async throws {
        let page = String(repeating: "<p>error détail</p>", count: 3000)
        let transport = RecordingTransport(status: 500, headers: ["Content-Type": "text/html"], body: page)
        let tools = EndpointTools([PlaceOrder.self], on: .stub(transport), maximumResultSize: limit)
        let result = try await tools.result(name: "place_order", arguments: "{\(Self.order)}")
        #expect(result.isError)
        #expect(result.text.utf8.count <= limit)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        #expect(object["truncated"] as? Bool == true)
        let invalid = try await tools.result(name: "place_order", arguments: #"{"items": [\#(String(repeating: #"{"sku": "a", "qty": 1},"#, count: 200))1]}"#)
        #expect(invalid.text.utf8.count <= limit)
        #expect((try? JSONSerialization.jsonObject(with: Data(invalid.text.utf8))) != nil)
    }

    @Test func `a text body that is not JSON comes back as one JSON string`() async throws {
        let transport = RecordingTransport(headers: ["Content-Type": "text/plain"], body: "line \"one\"\nline two")
        let result = try await EndpointTools([Notes.self], on: .stub(transport)).result(name: "notes", arguments: "")
        #expect(result.text == #""line \"one\"\nline two""#)
    }
}
