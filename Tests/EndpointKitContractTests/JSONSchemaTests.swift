import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
import Testing

// Payload shapes for the schema derivation, as apps declare them.
private struct Order: Decodable {
    enum Status: String, Decodable, CaseIterable { case open, shipped }
    enum Priority: Int, Decodable, CaseIterable { case low = 1, high = 2 }
    struct Line: Decodable { let sku: String; let quantity: UInt8 }

    let id: UUID
    let status: Status
    let priority: Priority?
    let lines: [Line]
    let tags: Set<String>
    let attributes: [String: Int]
    let placedAt: Date
    let receipt: URL?
    let signature: Data
    let total: Double
    let discount: Nullable<Int32>?
}

private final class Category: Decodable {
    let name: String
    let children: [Category]
    let parent: Category?
}

private enum Shape: Decodable {
    case circle(radius: Double)
    case square(side: Double)
}

private struct Drawing: Decodable {
    let title: String
    let shape: Shape
}

private enum DescribedShape: Decodable, CustomJSONSchema {
    case circle(radius: Double)

    static var jsonSchema: JSONSchema {
        .oneOf([.object(["circle": .object(["radius": .number], required: ["radius"])], required: ["circle"])])
    }
    static var schemaExample: DescribedShape { .circle(radius: 1) }
}

private struct DescribedDrawing: Decodable, Documented {
    let shape: DescribedShape
    let createdAt: Date

    static var documentation: Documentation {
        Documentation(description: "A drawing of one shape", properties: [
            "createdAt": .init("When it was drawn", example: Date(timeIntervalSince1970: 0)),
        ])
    }
}

private struct Positive: Decodable {
    let value: Int
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
        guard value > 100 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "must be over 100"))
        }
    }
}

private struct Account: Decodable {
    let balance: Positive
}

private func json(_ schema: JSONSchema) throws -> String {
    String(decoding: try schema.json(), as: UTF8.self)
}

@Suite struct JSONSchemaTests {
    @Test func `a payload's schema names properties in snake_case and gives each type its JSON form`() throws {
        let text = try json(JSONSchema(for: Order.self))
        #expect(text == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Order","type":"object","properties":{"id":{"type":"string","format":"uuid","pattern":"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"},"status":{"title":"Order.Status","type":"string","enum":["open","shipped"]},"priority":{"title":"Order.Priority","type":["integer","null"],"enum":[1,2,null]},"lines":{"type":"array","items":{"$ref":"#/$defs/Order.Line"}},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},"attributes":{"type":"object","additionalProperties":{"type":"integer","format":"int64","minimum":-9223372036854775808,"maximum":9223372036854775807}},"placed_at":{"type":"string","format":"date-time","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})$"},"receipt":{"type":["string","null"],"format":"uri"},"signature":{"type":"string","contentEncoding":"base64","pattern":"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"},"total":{"type":"number","format":"double","minimum":-1.7976931348623157e+308,"maximum":1.7976931348623157e+308,"not":{"type":"number","exclusiveMinimum":-5.0e-324,"exclusiveMaximum":5.0e-324,"not":{"const":0}}},"discount":{"type":["integer","null"],"format":"int32","minimum":-2147483648,"maximum":2147483647}},"required":["id","status","lines","tags","attributes","placed_at","signature","total"],"$defs":{"Order.Line":{"title":"Order.Line","type":"object","properties":{"sku":{"type":"string"},"quantity":{"type":"integer","minimum":0,"maximum":255}},"required":["sku","quantity"]}}}"##)
    }

    @Test func `a recursive type refers to itself`() throws {
        let text = try json(JSONSchema(for: Category.self))
        #expect(text == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#/$defs/Category","$defs":{"Category":{"title":"Category","type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Category"}},"parent":{"anyOf":[{"$ref":"#/$defs/Category"},{"type":"null"}]}},"required":["name","children"]}}}"##)
    }

    @Test func `the encoder's strategies name keys and format dates`() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = try json(JSONSchema(for: Order.self, encoder: encoder))
        #expect(text.contains(#""placedAt":{"type":"number","description":"Seconds since 1970-01-01T00:00:00Z"}"#))
        #expect(!text.contains("placed_at"))
    }

    @Test func `an enum with associated values is an error that names it and says how to describe it`() throws {
        let error = try #require(throws: EndpointError.self) { try JSONSchema(for: Drawing.self) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.route.hasSuffix("Shape"))
        #expect(error.reason.contains("CustomJSONSchema"))
    }

    @Test func `an init(from:) that refuses the placeholder is an error, never a crash`() throws {
        let error = try #require(throws: EndpointError.self) { try JSONSchema(for: Account.self) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.route.hasSuffix("Positive"))
        #expect(error.reason.contains("must be over 100"))
    }

    @Test func `a type that describes itself, and documentation, replace and annotate what is derived`() throws {
        let text = try json(JSONSchema(for: DescribedDrawing.self))
        #expect(text == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"DescribedDrawing","type":"object","properties":{"shape":{"$ref":"#/$defs/DescribedShape"},"created_at":{"type":"string","format":"date-time","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})$","description":"When it was drawn","examples":["1970-01-01T00:00:00Z"]}},"required":["shape","created_at"],"description":"A drawing of one shape","$defs":{"DescribedShape":{"title":"DescribedShape","oneOf":[{"type":"object","properties":{"circle":{"type":"object","properties":{"radius":{"type":"number"}},"required":["radius"]}},"required":["circle"]}]}}}"##)
    }

    @Test func `EndpointKit's own payload types have schemas`() throws {
        #expect(try json(JSONSchema(for: EmptyPayload.self)) == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"EmptyPayload","description":"No content: any body is ignored."}"##)
        #expect(try json(JSONSchema(for: [Nullable<String>].self)) == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array","items":{"type":["string","null"]}}"##)
    }

    @Test func `pretty printing indents one member per line`() throws {
        let text = String(decoding: try JSONSchema(for: [String: Bool].self).json(prettyPrinted: true), as: UTF8.self)
        #expect(text == """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "additionalProperties": {
                "type": "boolean"
              }
            }
            """)
    }
}
