@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTools
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every kind of optional argument an endpoint can declare, as the generator writes them
/// (`@QueryItem var dryRun: Bool?` beside a body, `@EncodedArray(.commaSeparated) var ids = []`)
/// and as people do by hand: the tool's definition, the argument check and the decoder must agree
/// on which fields a model may leave out.
private struct PostThing: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "things/{thingId}/notes") }
    let thingId: Int
    let text: String
    let kind: String
    let note: String?
    let labels: [String]?
    let parent: Nullable<Int>?
    @QueryItem var dryRun: Bool?
    @QueryItem var tags: [String]?
    typealias ReturnPayloadType = EmptyPayload
}

/// A GET with a comma-separated list, as the generator writes an optional unexploded one.
private struct FindThings: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "things") }
    @EncodedArray(.commaSeparated) var ids: [String] = []
    let limit: Int?
    typealias ReturnPayloadType = EmptyPayload
}

/// A PUT whose whole body is one optional property.
private struct SetBadge: Endpoint, Decodable {
    var endpoint: Restful { Restful(.put, "badges/{name}") }
    let name: String
    @Body var badge: String?
    typealias ReturnPayloadType = EmptyPayload
}

/// Properties the synthesized decoder needs even though they have an initial value: a plain
/// `var` and a wrapped non-optional one. They stay required everywhere.
private struct ListPage: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "pages") }
    var size = 20
    @QueryItem var page: Int = 1
    typealias ReturnPayloadType = EmptyPayload
}

@Suite struct OptionalArgumentTests {
    private static func required(_ tool: String, in tools: EndpointTools, format: ToolFormat) throws -> [String] {
        let definition = try #require(try tools.definitions(for: format).first { $0.name == tool })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(definition.description.utf8)) as? [String: Any])
        let schema: [String: Any]? = switch format {
        case .anthropic: object["input_schema"] as? [String: Any]
        default: (object["function"] as? [String: Any])?["parameters"] as? [String: Any]
        }
        return try #require(schema)["required"] as? [String] ?? []
    }

    @Test func `the definitions list exactly the fields without which a call fails`() throws {
        let tools = EndpointTools([PostThing.self, FindThings.self, SetBadge.self, ListPage.self], on: .stub(RecordingTransport(status: 204, body: "")))
        #expect(try Self.required("post_thing", in: tools, format: .anthropic).sorted() == ["kind", "text", "thing_id"])
        #expect(try Self.required("find_things", in: tools, format: .anthropic) == [])
        #expect(try Self.required("set_badge", in: tools, format: .anthropic) == ["name"])
        #expect(try Self.required("list_page", in: tools, format: .anthropic).sorted() == ["page", "size"])
    }

    @Test func `a call that leaves out every optional field is sent without them`() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([PostThing.self], on: .stub(transport))
        let result = try await tools.result(name: "post_thing", arguments: #"{"thing_id": 7, "text": "hi", "kind": "memo"}"#)
        #expect(!result.isError, "\(result.text)")
        #expect(try transport.request.url?.absoluteString.hasSuffix("/things/7/notes") == true, "\((try? transport.request.url?.absoluteString) ?? "")")
        let body = String(decoding: try transport.request.httpBody ?? Data(), as: UTF8.self)
        #expect(body == #"{"kind":"memo","text":"hi"}"#)
    }

    @Test func `optional fields that are given reach the wire`() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([PostThing.self], on: .stub(transport))
        let result = try await tools.result(name: "post_thing", arguments: #"""
            {"thing_id": 7, "text": "hi", "kind": "memo", "dry_run": true, "tags": ["a", "b"], "parent": 5}
            """#)
        #expect(!result.isError, "\(result.text)")
        #expect(try transport.request.url?.query == "dry_run=true&tags=a&tags=b", "\((try? transport.request.url?.absoluteString) ?? "")")
        let body = String(decoding: try transport.request.httpBody ?? Data(), as: UTF8.self)
        #expect(body == #"{"kind":"memo","parent":5,"text":"hi"}"#)
    }

    @Test func `a comma-separated list may be left out, and is sent in its declared style when given`() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([FindThings.self], on: .stub(transport))
        let none = try await tools.result(name: "find_things", arguments: "{}")
        #expect(!none.isError, "\(none.text)")
        let some = try await tools.result(name: "find_things", arguments: #"{"ids": ["x", "y"], "limit": 2}"#)
        #expect(!some.isError, "\(some.text)")
        #expect(transport.requests.map { $0.url?.query } == [nil, "ids=x,y&limit=2"])
    }

    @Test func `a whole optional body may be left out`() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([SetBadge.self], on: .stub(transport))
        let result = try await tools.result(name: "set_badge", arguments: #"{"name": "gold"}"#)
        #expect(!result.isError, "\(result.text)")
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [("size", #"{"page": 2}"#), ("page", #"{"size": 5}"#)])
    func `fields with an initial value that the decoder needs are required by the check too`(field: String, arguments: String) async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let tools = EndpointTools([ListPage.self], on: .stub(transport))
        let result = try await tools.result(name: "list_page", arguments: arguments)
        #expect((result.error as? EndpointError)?.reason.contains(#"the field "\#(field)" is required but missing"#) == true, "\(result.text)")
        #expect(transport.requests.isEmpty)
    }

    @Test func `the OpenAPI document agrees with the tool on what is required`() throws {
        let document = try OpenAPIDocument(title: "Things", version: "1", servers: [], endpoints: [PostThing.self, FindThings.self])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let paths = try #require(json["paths"] as? [String: [String: Any]])
        func required(_ suffix: String, _ method: String) throws -> [String] {
            let path = try #require(paths.keys.first { $0.hasSuffix(suffix) }, "\(paths.keys)")
            let operation = try #require(paths[path]?[method] as? [String: Any])
            let parameters = operation["parameters"] as? [[String: Any]] ?? []
            return parameters.filter { $0["required"] as? Bool == true }.compactMap { $0["name"] as? String }
        }
        let notes = try required("/notes", "post")
        #expect(notes == ["thingId"])
        let things = try required("/things", "get")
        #expect(things == [])
    }
}
