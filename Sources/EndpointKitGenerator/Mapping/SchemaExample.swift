#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Foundation
import Yams

/// A small JSON value a schema accepts, kept in the order it is written.
indirect enum SchemaExample {
    /// JSON text of a scalar or an empty array: `"a"`, `0`, `false`, `null`, `[]`.
    case scalar(String)
    case object([(key: String, value: SchemaExample)])

    /// The value as compact JSON text.
    var json: String {
        switch self {
        case .scalar(let text): return text
        case .object(let members): return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// This object with `key` set to `value` (last, replacing an earlier value); other values as they are.
    func setting(_ key: String, to value: SchemaExample) -> SchemaExample {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key } + [(key, value)])
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
        return String(array.dropFirst().dropLast())
    }

    /// A YAML scalar as JSON: numbers, booleans and null as they are, anything else a string.
    static func literal(_ node: Node) -> SchemaExample {
        guard case .scalar(let scalar) = node else { return .scalar("null") }
        if node.null != nil { return .scalar("null") }
        if scalar.style == .plain {
            if node.bool != nil { return .scalar(scalar.string) }
            if node.int != nil || node.float != nil { return .scalar(scalar.string) }
        }
        return .scalar(quoted(scalar.string))
    }
}

extension SchemaMapper {
    /// A small value that `schema` accepts, as wire JSON: every required property, the first
    /// alternative of a union (with its discriminator's tag), the first value of an enum, a
    /// placeholder of each format (`1970-01-01T00:00:00Z` for `date-time`).
    ///
    /// Generated unions describe themselves to EndpointKitContract (`CustomJSONSchema`), which needs
    /// a value of the type: the generated code decodes this with the API's own decoder.
    func example(of schema: Node, depth: Int = 0) -> SchemaExample {
        guard depth < 32, let schema = try? resolved(schema, at: "#") else { return .scalar("null") }
        if let value = schema["const"] { return SchemaExample.literal(value) }
        if let value = schema["enum"]?.sequence?.first(where: { $0.null == nil }) { return SchemaExample.literal(value) }
        if let alternatives = (schema["oneOf"] ?? schema["anyOf"])?.sequence,
           let first = alternatives.first(where: { !isNull($0) }) {
            var value = example(of: first, depth: depth + 1)
            if let property = schema["discriminator"]?["propertyName"]?.string, let reference = first["$ref"]?.string {
                // The tag: the mapping's value for this alternative, else its component's name.
                let key = try? componentKey(reference, at: "#")
                let mapped = (schema["discriminator"]?["mapping"]?.mapping ?? [:]).first { _, target in
                    target.string.flatMap { try? componentKey($0.hasPrefix("#") ? $0 : "#/components/schemas/" + $0, at: "#") } == key
                }?.key.string
                // Unmapped, the value the alternative fixes the property to (already in the
                // example) is what its own type accepts; the component's name only otherwise.
                let fixed = (try? fixedText(of: property, in: first, at: "#")) ?? nil
                if let tag = mapped ?? (fixed == nil ? key : nil) { value = value.setting(property, to: SchemaExample.scalar(SchemaExample.quoted(tag))) }
            }
            return value
        }
        if let members = schema["allOf"]?.sequence {
            var value = SchemaExample.object([])
            for member in members {
                guard case .object(let properties) = example(of: member, depth: depth + 1) else { continue }
                for property in properties { value = value.setting(property.key, to: property.value) }
            }
            guard case .object(let own) = object(schema, depth: depth) else { return value }
            for property in own { value = value.setting(property.key, to: property.value) }
            return value
        }
        let types = schema["type"].map { $0.sequence.map { $0.compactMap(\.string) } ?? [$0.string ?? ""] } ?? []
        switch types.first(where: { $0 != "null" }) ?? (schema["properties"] != nil ? "object" : "") {
        case "string":
            switch schema["format"]?.string {
            case "date-time": return .scalar(#""1970-01-01T00:00:00Z""#)
            case "date": return .scalar(#""1970-01-01""#)
            case "uuid": return .scalar(#""00000000-0000-0000-0000-000000000000""#)
            case "uri", "url": return .scalar(#""https://example.com""#)
            default: return .scalar(#""""#)
            }
        case "integer", "number": return .scalar("0")
        case "boolean": return .scalar("false")
        case "array": return .scalar("[]")
        case "object": return object(schema, depth: depth)
        default: return types.contains("null") ? .scalar("null") : .object([])
        }
    }

    /// An object with the required properties of `schema`, in the document's order.
    private func object(_ schema: Node, depth: Int) -> SchemaExample {
        let required = Set((schema["required"]?.sequence ?? []).compactMap(\.string))
        var value = SchemaExample.object([])
        for (key, property) in schema["properties"]?.mapping ?? [:] {
            guard let name = key.string, required.contains(name) else { continue }
            value = value.setting(name, to: example(of: property, depth: depth + 1))
        }
        return value
    }
}
#endif
