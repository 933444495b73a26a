import EndpointKit
import EndpointKitContract
import Foundation
import Testing

private enum Color: String, Codable, CaseIterable, CodingKeyRepresentable { case red, green }
private struct Point: Codable, Hashable { let x: Int }

private struct Catalog: Codable {
    let byID: [Int: String]
    let byColor: [Color: Int]
    let names: [String: Int]
    enum CodingKeys: String, CodingKey { case byID = "byId", byColor, names }
}

private struct Plotted: Decodable { let points: [Point: String] }
private struct Small: Decodable { let counts: [UInt8: Int] }  // not CodingKeyRepresentable: a list too

@Suite struct DictionaryKeyTests {
    @Test func `dictionaries describe their keys with propertyNames and their values with additionalProperties`() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: JSONSchema(for: Catalog.self).json()) as? [String: Any])
        let properties = try #require(object["properties"] as? [String: [String: Any]])
        let byID = try #require(properties["byId"])
        #expect(byID["type"] as? String == "object")
        let pattern = try #require((byID["propertyNames"] as? [String: Any])?["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool { regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        // Exactly the keys Int(_:) reads back: Int.min to Int.max, no more.
        for key in ["0", "7", "-7", String(Int.max), String(Int.min), "1000000000000000000"] { #expect(matches(key), "\(key)") }
        for key in ["-0", "01", "9223372036854775808", "-9223372036854775809", "10000000000000000000", "1.5", "", "x"] { #expect(!matches(key), "\(key)") }
        #expect((byID["additionalProperties"] as? [String: Any])?["type"] as? String == "string")
        #expect((properties["by_color"]?["propertyNames"] as? [String: Any])?["enum"] as? [String] == ["red", "green"])
        #expect(properties["names"]?["propertyNames"] == nil)
        #expect(object["title"] as? String == "Catalog")
        #expect(!String(decoding: try JSONSchema(for: Catalog.self).json(), as: UTF8.self).contains("Dictionary_"))
        // What the encoder writes, the schema describes, and the decoder reads back.
        let value = Catalog(byID: [7: "a", -2: "b"], byColor: [.red: 3], names: ["x": 1])
        let json = try APIServer.makeEncoder().encode(value)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""-2":"b""#) && text.contains(#""red":3"#), "\(text)")
        #expect(try APIServer.makeDecoder().decode(Catalog.self, from: json).byID == value.byID)
    }

    @Test func `a dictionary JSONEncoder writes as a list of keys and values is refused`() throws {
        for error in [
            try #require(throws: EndpointError.self) { try JSONSchema(for: Plotted.self) },
            try #require(throws: EndpointError.self) { try JSONSchema(for: Small.self) },
        ] {
            #expect(error.kind == .schemaUnavailable)
            #expect(error.reason.contains("one list of keys and values in turn"), "\(error.reason)")
        }
        #expect(String(decoding: try JSONEncoder().encode([UInt8(1): 2]), as: UTF8.self) == "[1,2]")  // why
    }
}
