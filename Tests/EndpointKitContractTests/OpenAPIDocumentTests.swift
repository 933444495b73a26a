import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
import Testing

// Endpoints of every shape the document must describe as EndpointKit sends them.
private struct SearchRepositories: Endpoint, Decodable, Documented {
    struct Filter: Codable, Sendable { let minStars: Int }
    var endpoint: Restful { Restful(.get, "search/{+scope}", version: 3) }
    let scope: String
    let tags: [String]
    @EncodedArray(.commaSeparated) var fields: [String] = []
    let filter: Filter?
    @HeaderField("X-Request-ID") var requestID: String? = nil
    static var headers: [String: String] { ["Accept-Language": "fr"] }
    typealias ReturnPayloadType = [String]

    static var documentation: Documentation {
        Documentation(summary: "Search", description: "Finds repositories.", tags: ["search"], properties: ["tags": "Topics to match"])
    }
}

private struct TokenGrant: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "oauth/token", body: .form) }
    let username: String
    let scopes: [String]
    static var requiresAuthorization: Bool { false }
    struct ReturnPayloadType: Decodable, Sendable { let accessToken: String }
}

private struct UploadAvatar: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "users/{id}/avatar", body: .multipart) }
    let id: Int
    let caption: String?
    let image: MultipartFile
    typealias ReturnPayloadType = EmptyPayload
}

private struct PutPicture: Endpoint, Decodable {
    var endpoint: Restful { Restful(.put, "pictures/{id}", body: .raw(contentType: "image/png")) }
    let id: Int
    let png: Data
    typealias ReturnPayloadType = Data
}

private struct PatchNote: Endpoint, Decodable {
    struct Note: Codable, Sendable { let text: String }
    var endpoint: Restful { Restful(.patch, "notes/{id}", body: .json(contentType: "application/merge-patch+json")) }
    let id: Int
    @QueryItem var notify: Bool
    @Body var note: Note
    typealias ReturnPayloadType = Note?
}

private struct Problem: Decodable, Sendable { let message: String }

private struct Twin: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "oauth/token") }
    typealias ReturnPayloadType = EmptyPayload
}

// A generated endpoint whose document said `200` with no content: exported as it was, not as 204.
private struct Acknowledge: Endpoint, Decodable, Documented {
    var endpoint: Restful { Restful(.post, "acknowledge", body: .empty) }
    typealias ReturnPayloadType = EmptyPayload
    static var documentation: Documentation { Documentation(status: 200) }
}

private func document(_ endpoints: [any (Endpoint & Decodable).Type], middlewares: [any EndpointMiddleware] = []) throws -> [String: Any] {
    let server = APIServer(
        origin: URL(string: "https://api.example.com/")!, errorPayloadType: Problem.self, middlewares: middlewares)
    let document = try OpenAPIDocument(title: "Example", version: "1.0", servers: [server], endpoints: endpoints)
    return try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
}

/// The value at a path of keys and indices in decoded JSON.
private func at(_ value: Any?, _ path: Any...) -> Any? {
    var current = value
    for step in path {
        if let key = step as? String { current = (current as? [String: Any])?[key] }
        if let index = step as? Int { current = (current as? [Any]).flatMap { $0.indices.contains(index) ? $0[index] : nil } }
    }
    return current
}

private func parameters(_ document: [String: Any], _ path: String, _ method: String) -> [String: [String: Any]] {
    let list = at(document, "paths", path, method, "parameters") as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: list.map { ("\($0["in"]!) \($0["name"]!)", $0) })
}

@Suite struct OpenAPIDocumentTests {
    @Test func `a 200 without content stays a 200`() throws {
        let responses = try #require(at(try document([Acknowledge.self]), "paths", "/api/v1/acknowledge", "post", "responses") as? [String: Any])
        #expect(responses["200"] != nil)
        #expect(responses["204"] == nil)
        #expect(at(responses, "200", "content") == nil)
    }

    @Test func `parameters are where EndpointKit sends them, with their names and styles`() throws {
        let document = try document([SearchRepositories.self])
        #expect(at(document, "openapi") as? String == "3.1.0")
        #expect(at(document, "servers", 0, "url") as? String == "https://api.example.com")
        #expect(at(document, "paths", "/api/v3/search/{scope}", "get", "operationId") as? String == "searchRepositories")
        #expect(at(document, "paths", "/api/v3/search/{scope}", "get", "summary") as? String == "Search")
        #expect(at(document, "paths", "/api/v3/search/{scope}", "get", "tags", 0) as? String == "search")
        let found = parameters(document, "/api/v3/search/{scope}", "get")
        #expect(Set(found.keys) == ["path scope", "query tags", "query fields", "query filter[min_stars]", "header X-Request-ID", "header Accept-Language"])
        #expect(found["path scope"]?["required"] as? Bool == true)
        #expect(found["query tags"]?["style"] as? String == "form")
        #expect(found["query tags"]?["explode"] as? Bool == true)
        #expect(found["query tags"]?["required"] as? Bool == false)  // an empty list sends nothing
        #expect(found["query tags"]?["description"] as? String == "Topics to match")
        #expect(found["query fields"]?["explode"] as? Bool == false)
        // A query object, leaf by leaf, as it is sent: filter[min_stars]=5.
        #expect(found["query filter[min_stars]"]?["style"] == nil)
        #expect(found["query filter[min_stars]"]?["required"] as? Bool == false)
        #expect(at(found["query filter[min_stars]"], "schema", "type") as? String == "integer")
        #expect(found["header X-Request-ID"]?["required"] as? Bool == false)
        #expect(at(found["header X-Request-ID"], "schema", "type") as? String == "string")
        #expect(at(found["header Accept-Language"], "schema", "enum", 0) as? String == "fr")
        #expect(at(document, "paths", "/api/v3/search/{scope}", "get", "responses", "default", "content", "application/json", "schema", "$ref") as? String == "#/components/schemas/Problem")
        #expect(at(document, "components", "schemas", "SearchRepositories") == nil)  // an endpoint is not a schema
    }

    @Test func `form, multipart, raw and JSON bodies get their media types and schemas`() throws {
        let document = try document([TokenGrant.self, UploadAvatar.self, PutPicture.self, PatchNote.self])
        let form = at(document, "paths", "/api/v1/oauth/token", "post", "requestBody", "content", "application/x-www-form-urlencoded")
        #expect(at(form, "schema", "required") as? [String] == ["username"])  // an empty list is no field at all
        #expect(at(form, "encoding", "scopes", "explode") as? Bool == true)
        let multipart = at(document, "paths", "/api/v1/users/{id}/avatar", "post", "requestBody", "content", "multipart/form-data", "schema")
        #expect(at(multipart, "properties", "image", "contentMediaType") as? String == "application/octet-stream")
        #expect(at(multipart, "properties", "caption", "type") as? String == "string")  // a form has no null: nil is no field
        #expect(at(multipart, "required") as? [String] == ["image"])
        #expect(at(document, "paths", "/api/v1/users/{id}/avatar", "post", "responses", "204", "description") as? String == "No content")
        #expect(at(document, "paths", "/api/v1/pictures/{id}", "put", "requestBody", "content", "image/png", "schema", "contentMediaType") as? String == "application/octet-stream")
        #expect(at(document, "paths", "/api/v1/pictures/{id}", "put", "responses", "200", "content", "application/octet-stream", "schema", "contentMediaType") as? String == "application/octet-stream")
        let patch = at(document, "paths", "/api/v1/notes/{id}", "patch")
        #expect(at(patch, "requestBody", "content", "application/merge-patch+json", "schema", "$ref") as? String == "#/components/schemas/PatchNote.Note")
        #expect((at(patch, "parameters") as? [[String: Any]])?.map { "\($0["in"]!) \($0["name"]!)" } == ["path id", "query notify"])
        #expect(at(patch, "responses", "200", "content", "application/json", "schema", "$ref") as? String == "#/components/schemas/PatchNote.Note")
        #expect(at(patch, "responses", "204") != nil)
    }

    @Test func `security schemes come from the authorization middlewares and skip endpoints that opt out`() throws {
        let document = try document(
            [SearchRepositories.self, TokenGrant.self],
            middlewares: [HTTPBearerAuthorization(token: "s3cr3t"), APIKeyAuthorization(queryParameter: "api_key", value: "k-123")])
        #expect(at(document, "components", "securitySchemes", "bearerAuth", "scheme") as? String == "bearer")
        #expect(at(document, "components", "securitySchemes", "apiKeyQuery", "name") as? String == "api_key")
        #expect((at(document, "paths", "/api/v3/search/{scope}", "get", "security", 0) as? [String: Any]).map { Set($0.keys) } == ["bearerAuth", "apiKeyQuery"])
        #expect(at(document, "paths", "/api/v1/oauth/token", "post", "security") == nil)
        let text = String(decoding: try OpenAPIDocument(
            title: "Example", version: "1.0",
            servers: [APIServer(origin: URL(string: "https://api.example.com")!, middlewares: [HTTPBearerAuthorization(token: "s3cr3t")])],
            endpoints: [SearchRepositories.self]).yaml(), as: UTF8.self)
        #expect(!text.contains("s3cr3t"))  // credentials never reach the document
    }

    @Test func `two endpoints with the same method and path are an error`() throws {
        let error = try #require(throws: EndpointError.self) { try document([TokenGrant.self, Twin.self]) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains("POST /api/v1/oauth/token"))
    }

    @Test func `YAML and JSON hold the same document`() throws {
        let document = try OpenAPIDocument(title: "Example: \"quoted\"", version: "2", endpoints: [TokenGrant.self, SearchRepositories.self])
        let yaml = String(decoding: document.yaml(), as: UTF8.self)
        #expect(yaml.hasPrefix("openapi: \"3.1.0\"\ninfo:\n  title: \"Example: \\\"quoted\\\"\"\n  version: \"2\"\n"))
        #expect(yaml.contains("\n      parameters:\n        - name: scope\n          in: path\n"))
    }
}
