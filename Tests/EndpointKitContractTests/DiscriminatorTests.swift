import EndpointKit
import EndpointKitContract
import Foundation
import Testing

/// A shape whose `kind` decides which other key is read.
private struct Shape: Decodable, Sendable {
    enum Kind: String, Decodable, CaseIterable { case circle, square, point }
    let kind: Kind
    var radius: Double?
    var side: Double?
    enum CodingKeys: String, CodingKey { case kind, radius, side }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        switch kind {
        case .circle: radius = try container.decode(Double.self, forKey: .radius)
        case .square: side = try container.decode(Double.self, forKey: .side)
        case .point: break
        }
    }
}

/// An enumeration that decides nothing: described as before.
private struct Cheer: Decodable, Sendable {
    enum Size: String, Decodable, CaseIterable { case small, large }
    let size: Size
    let amount: Int
}

/// The discriminator is optional: the branches cannot be told apart by it.
private struct Loose: Decodable, Sendable {
    enum Kind: String, Decodable, CaseIterable { case a, b }
    var kind: Kind?
    var left: Int?
    var right: Int?
    enum CodingKeys: String, CodingKey { case kind, left, right }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(Kind.self, forKey: .kind)
        if kind == .a { left = try container.decode(Int.self, forKey: .left) } else { right = try container.decode(Int.self, forKey: .right) }
    }
}

@Suite struct DiscriminatorTests {
    static func definition(_ schema: JSONSchema, _ name: String) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: schema.json()) as? [String: Any])
        if object["title"] as? String == name { return object }
        let definitions = try #require(object["$defs"] as? [String: Any])
        return try #require(definitions[name] as? [String: Any])
    }

    @Test func `a kind that decides the other keys gives one branch per case, each with its const`() throws {
        let shape = try Self.definition(JSONSchema(for: Shape.self), "Shape")
        let branches = try #require(shape["oneOf"] as? [[String: Any]])
        #expect(branches.count == 3)
        var seen: [String: [String]] = [:]
        for branch in branches {
            let properties = try #require(branch["properties"] as? [String: Any])
            let kind = try #require(properties["kind"] as? [String: Any])
            let value = try #require(kind["const"] as? String)
            seen[value] = (branch["required"] as? [String] ?? []).sorted()
        }
        #expect(seen == ["circle": ["kind", "radius"], "square": ["kind", "side"], "point": ["kind"]])
        // Every branch's instance decodes, to the case it names.
        for (json, kind) in [(#"{"kind":"circle","radius":2}"#, Shape.Kind.circle), (#"{"kind":"square","side":3}"#, .square), (#"{"kind":"point"}"#, .point)] {
            #expect(try APIServer.makeDecoder().decode(Shape.self, from: Data(json.utf8)).kind == kind)
        }
    }

    @Test func `an enumeration that decides nothing is described once, as before`() throws {
        let cheer = try Self.definition(JSONSchema(for: Cheer.self), "Cheer")
        #expect(cheer["oneOf"] == nil)
        #expect((cheer["required"] as? [String])?.sorted() == ["amount", "size"])
    }

    @Test func `branches that no required enumeration tells apart are refused`() throws {
        let error = try #require(throws: EndpointError.self) { try JSONSchema(for: Loose.self) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains("depends on the value of its property at kind"), "\(error.reason)")
    }
}
