import EndpointKit
import EndpointKitContract
import EndpointKitTools
import Foundation
import Testing

private struct Profile: Decodable, Sendable {
    let userID: Int
}

private struct Stamped: Decodable, Sendable {
    let lastModified: String
    enum CodingKeys: String, CodingKey { case lastModified = "last_modified" }
}

private struct Account: Decodable, Sendable {
    let userId: Int
    let version: Int
    enum CodingKeys: String, CodingKey { case userId, version = "schemaVersion" }
}

private struct FindUser: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "users") }
    let userID: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct Traced: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "traced") }
    let userId: Int
    @HeaderField("X-Request-ID") var requestID: String? = "app"
    typealias ReturnPayloadType = EmptyPayload
}

/// The contract never advertises a key the decoder cannot read: a snake_case strategy writes
/// `userID` as `user_id`, and `convertFromSnakeCase` reads that back as `userId`.
@Suite struct KeyReadBackTests {
    @Test func `a payload property whose wire name reads back as another is refused, naming it and the fix`() throws {
        let error = try #require(throws: EndpointError.self) { try JSONSchema(for: Profile.self) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains(#"its property userID (at userID) is written "user_id", which the decoder reads back as "userId""#), "\(error.reason)")
        #expect(error.reason.contains("Name the property userId"))
        // What the refusal protects against: the schema's instance would not decode.
        #expect(throws: DecodingError.self) { try APIServer.makeDecoder().decode(Profile.self, from: Data(#"{"user_id":1}"#.utf8)) }
    }

    @Test func `a CodingKeys raw value in snake_case is refused: the decoder never matches it`() throws {
        let error = try #require(throws: EndpointError.self) { try JSONSchema(for: Stamped.self) }
        #expect(error.reason.contains(#"its CodingKeys raw value "last_modified" (at last_modified) is never matched"#), "\(error.reason)")
        #expect(error.reason.contains(#"Spell the raw value "lastModified""#))
        #expect(throws: DecodingError.self) { try APIServer.makeDecoder().decode(Stamped.self, from: Data(#"{"last_modified":"x"}"#.utf8)) }
    }

    @Test func `keys that read back are exported, and what the schema says decodes`() throws {
        let schema = try JSONSchema(for: Account.self).json()
        let text = String(decoding: schema, as: UTF8.self)
        #expect(text.contains(#""user_id""#))
        #expect(text.contains(#""schemaVersion""#))
        let account = try APIServer.makeDecoder().decode(Account.self, from: Data(#"{"user_id":1,"schemaVersion":2}"#.utf8))
        #expect(account.userId == 1 && account.version == 2)
    }

    @Test func `a tool argument that would not read back is refused; a header, which the model never sends, is not`() throws {
        let server = APIServer(origin: URL(string: "https://example.com")!)
        let error = try #require(throws: EndpointError.self) { try EndpointTools([FindUser.self], on: server).definitions(for: .anthropic) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains("userID"), "\(error.reason)")
        #expect(try EndpointTools([Traced.self], on: server).definitions(for: .anthropic).count == 1)
    }

    @Test func `an OpenAPI request, which is only encoded, keeps the name it is sent with`() throws {
        let document = try OpenAPIDocument(title: "T", version: "1", servers: [], endpoints: [FindUser.self])
        let text = String(decoding: document.json(), as: UTF8.self)
        #expect(text.contains(#""name":"user_id""#), "\(text)")
    }
}
