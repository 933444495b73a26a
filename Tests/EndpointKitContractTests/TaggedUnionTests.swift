import EndpointKit
import EndpointKitContract
import EndpointKitMCP
import EndpointKitTools
import Foundation
import Testing

private struct Cat: Codable, Sendable { var species = "cat"; var indoor: Bool? }
private struct Dog: Codable, Sendable { var species = "dog"; var goodBoy: Bool? }

/// A union told apart by `species`, as endpointkit-generate writes one for a discriminator.
private enum Pet: Codable, Sendable, CustomJSONSchema {
    case cat(Cat), dog(Dog)
    private enum CodingKeys: String, CodingKey { case species }
    init(from decoder: any Decoder) throws {
        let tag = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .species)
        switch tag {
        case "cat": self = .cat(try Cat(from: decoder))
        case "dog": self = .dog(try Dog(from: decoder))
        default: throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.species], debugDescription: "\(tag) is none of cat, dog"))
        }
    }
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .cat(let cat): try cat.encode(to: encoder)
        case .dog(let dog): try dog.encode(to: encoder)
        }
    }
    static var jsonSchema: JSONSchema { .oneOf([.type(Cat.self).tagged("species", as: "cat"), .type(Dog.self).tagged("species", as: "dog")]) }
    static var schemaExample: Pet { .cat(Cat()) }
}

private struct Adopt: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "pets") }
    let pet: Pet
    typealias ReturnPayloadType = EmptyPayload
}

@Suite struct TaggedUnionTests {
    @Test func `each alternative fixes its tag beside the reference so that exactly one matches`() throws {
        let schema = String(decoding: try JSONSchema.oneOf([.type(Cat.self).tagged("species", as: "cat"), .type(Dog.self).tagged("species", as: "dog")]).json(), as: UTF8.self)
        #expect(schema.hasPrefix(##"{"oneOf":[{"$ref":"#/$defs/Cat","properties":{"species":{"const":"cat"}},"required":["species"]},{"$ref":"#/$defs/Dog","properties":{"species":{"const":"dog"}},"required":["species"]}]"##))
    }

    @Test func `a tag merges into an object's own properties and required list`() throws {
        let schema = String(decoding: try JSONSchema.object(["name": .string()], required: ["name"]).tagged("kind", as: "a").json(), as: UTF8.self)
        #expect(schema == #"{"type":"object","properties":{"name":{"type":"string"},"kind":{"const":"a"}},"required":["name","kind"]}"#)
    }

    @Test func `MCP input schemas do not close the tag beside a reference`() throws {
        let tools = EndpointTools([Adopt.self])
        let definition = try #require(try tools.definitions(for: .mcp).first)
        let text = definition.json.value.jsonText()
        // Closed there, {"species": "cat", "indoor": true} would fail: additionalProperties sees only "species".
        #expect(text.contains(##"{"$ref":"#/$defs/Cat","properties":{"species":{"const":"cat"}},"required":["species"]}"##), "\(text)")
        #expect(text.contains(#""Cat":{"title":"Cat","type":"object","properties":{"species":{"type":"string"},"indoor":{"type":["boolean","null"]}},"required":["species"],"additionalProperties":false}"#), "\(text)")
    }
}
