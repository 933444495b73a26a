import EndpointKit
import EndpointKitContract
import EndpointKitGenerator
import Foundation
@testable import ShelterMCP  // the shelter's document generated with --documented (and --mcp-server)
import Testing

/// Generated unions export: the shelter's document → the generator → structs whose unions say
/// their schema (`CustomJSONSchema`) → exported by EndpointKitContract → the generator again,
/// which finds the same discriminated union. Before, the export threw for every generated union
/// ("conform … to CustomJSONSchema").
@Suite struct UnionRoundTripTests {
    @Test func `a discriminated union comes back as the same union`() throws {
        let exported = try OpenAPIDocument(title: "Shelter", version: "1.0.0", servers: [.shelter(origin: URL(string: "http://127.0.0.1:8000")!)],
                                           endpoints: ShelterAPI.endpoints)
        let json = exported.json()
        let document = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let details = try #require(schemas["CreateAnimal.Details"] as? [String: Any], "\(schemas.keys.sorted())")
        let alternatives = try #require(details["oneOf"] as? [[String: Any]])
        #expect(alternatives.map { $0["$ref"] as? String } == ["#/components/schemas/Cat", "#/components/schemas/Dog"])
        #expect(alternatives.map { (($0["properties"] as? [String: Any])?["species"] as? [String: Any])?["const"] as? String } == ["cat", "dog"])

        let again = try EndpointGenerator.generate(DocumentLoader.load(json)).files
        let text = again.map(\.contents).joined(separator: "\n")
        #expect(text.contains("""
                case cat(Cat)
                case dog(Dog)
            """), "\(text)")
        #expect(text.contains(#"case "cat": self = try .cat(Cat(from: decoder))"#))
        #expect(text.contains(#"case "dog": self = try .dog(Dog(from: decoder))"#))
    }
}
