import EndpointKit
import EndpointKitTestSupport
import EndpointKitContract
import Foundation
import Testing

private struct Page<Item: Decodable & Sendable>: Decodable, Sendable {
    let items: [Item]
    let next: String?
}

private struct Cheer: Decodable, Sendable { let amount: Int }

private struct ListPages: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "pages") }
    typealias ReturnPayloadType = Page<Cheer>
}

private struct Search: Endpoint, Decodable {
    struct Inner: Codable, Sendable { let minStars: Int }
    struct Filter: Codable, Sendable { let inner: Inner; let labels: [String]; let owner: String? }
    struct Flat: Codable, Sendable { let language: String; let archived: Bool? }
    var endpoint: Restful { Restful(.get, "search") }
    let q: String
    let tags: [String]
    let filter: Filter
    let flat: Flat
    typealias ReturnPayloadType = EmptyPayload
}

private struct Queried: Endpoint, Decodable {
    var endpoint: Restful { Restful(RequestMethod(rawValue: "QUERY"), "things") }
    typealias ReturnPayloadType = EmptyPayload
}

private struct Collection: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "collections/{collection_id}") }
    let collectionId: String
    typealias ReturnPayloadType = EmptyPayload
}

private func document(_ endpoints: [any (Endpoint & Decodable).Type], arrays: ArrayEncoding = .repeatedKeys) throws -> [String: Any] {
    var server = APIServer(origin: URL(string: "https://api.example.com")!)
    server.arrayEncoding = arrays
    let document = try OpenAPIDocument(title: "T", version: "1", servers: [server], endpoints: endpoints)
    return try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
}

private func parameters(_ document: [String: Any], _ path: String) -> [String: [String: Any]] {
    let paths = document["paths"] as? [String: [String: Any]]
    let list = (paths?[path]?["get"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
}

/// What the document says is what is sent.
@Suite struct OpenAPITruthTests {
    @Test func `a query object is described leaf by leaf, as it is sent`() throws {
        let found = parameters(try document([Search.self]), "/api/v1/search")
        #expect(Set(found.keys) == ["q", "tags", "filter[inner][min_stars]", "filter[labels]", "filter[owner]", "flat[language]", "flat[archived]"])
        #expect(found["filter[inner][min_stars]"]?["required"] as? Bool == true)
        #expect(found["filter[labels]"]?["required"] as? Bool == false)    // an empty list sends nothing
        #expect(found["filter[labels]"]?["explode"] as? Bool == true)
        #expect(found["filter[owner]"]?["required"] as? Bool == false)
        #expect(found["flat[language]"]?["required"] as? Bool == true)
        #expect(found["flat[archived]"]?["required"] as? Bool == false)
        #expect(found["tags"]?["required"] as? Bool == false)
        #expect(found["q"]?["allowEmptyValue"] as? Bool == true)             // "" is sent as q=
        let brackets = parameters(try document([Search.self], arrays: .brackets), "/api/v1/search")
        #expect(brackets["filter[labels][]"] != nil)
        #expect(brackets["tags[]"] != nil)
    }

    @Test func `a method OpenAPI has no place for is refused, naming it`() throws {
        let error = try #require(throws: EndpointError.self) { try document([Queried.self]) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains("its method QUERY has no place in an OpenAPI 3.1 document"), "\(error.reason)")
    }

    @Test func `a placeholder no property fills is refused by the document with the call's own words`() async throws {
        let documentError = try #require(throws: EndpointError.self) { try document([Collection.self]) }
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: RecordingTransport())
        let callError = try await #require(throws: EndpointError.self) { try await Collection(collectionId: "c").call(on: server) }
        let words = "the path placeholder {collection_id} has no value"
        #expect(documentError.reason.contains(words), "\(documentError.reason)")
        #expect(callError.reason.contains(words), "\(callError.reason)")
        #expect(callError.kind == .invalidRequest)
    }

    @Test func `component names are the type's, generic arguments included, without modules`() throws {
        let object = try document([ListPages.self])
        let schemas = try #require((object["components"] as? [String: Any])?["schemas"] as? [String: Any])
        #expect(Set(schemas.keys) == ["Page_Cheer", "Cheer"])
        #expect(EndpointError.self != Never.self)  // (operationID(of:) is package API: checked through the document)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(!text.contains("EndpointKitTests"))
    }
}
