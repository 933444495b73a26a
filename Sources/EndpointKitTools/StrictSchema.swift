import EndpointKit
import EndpointKitContract
/// OpenAI's strict mode for tool parameters and structured output: the subset of JSON Schema that
/// constrained decoding accepts.
///
/// Every object lists all its properties in `required` and sets `additionalProperties: false`; a
/// property that was optional accepts `null` instead; `oneOf` becomes `anyOf`; only `type`,
/// `enum`, `const`, `description`, `properties`, `required`, `additionalProperties`, `items`,
/// `anyOf`, `$ref` and `$defs` remain, with `format` only where strict mode knows it. A
/// dictionary (an object of any keys) or an unconstrained value has no strict form.
enum StrictSchema {
    /// The formats strict mode accepts.
    static let formats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]
    static let keywords: Set<String> = [
        "type", "enum", "const", "description", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "$defs", "format",
    ]

    struct Problem: Error {
        let reason: String
    }

    /// The strict form of `schema`; `path` names where it is, for the error.
    static func transform(_ schema: JSONValue, at path: String) throws -> JSONValue {
        guard case .object(let members) = schema else {
            throw Problem(reason: "\(path) is not a schema object")
        }
        if let reference = schema["$ref"] { return .object(["$ref": reference]) }
        if let options = (schema["anyOf"] ?? schema["oneOf"])?.arrayValue {
            var result = JSONValue.object(["anyOf": .array(try options.enumerated().map { try transform($1, at: "\(path) option \($0 + 1)") })])
            if let description = schema["description"] { result["description"] = description }
            return result
        }
        var result = JSONValue.object([:])
        for member in members where keywords.contains(member.key) {
            switch member.key {
            case "format":
                if case .string(let format) = member.value, formats.contains(format) { result["format"] = member.value }
            case "properties", "required", "additionalProperties", "items", "$defs":
                break  // rebuilt below
            default:
                result[member.key] = member.value
            }
        }
        let types = schema["type"].map { $0.arrayValue ?? [$0] } ?? []
        if types.contains(.string("object")) {
            if schema["additionalProperties"] != nil && schema["properties"] == nil {
                throw Problem(reason: "\(path) is a dictionary (an object of any keys), which strict mode cannot describe; use a struct or an array of pairs")
            }
            let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            var properties: [JSONValue.Member] = []
            if case .object(let declared)? = schema["properties"] {
                for property in declared {
                    var value = try transform(property.value, at: "\(path).\(property.key)")
                    if !required.contains(property.key) { value = SchemaBuilder.nullable(value) }
                    properties.append(.init(key: property.key, value: value))
                }
            }
            result["properties"] = .object(properties)
            result["required"] = .array(properties.map { .string($0.key) })
            result["additionalProperties"] = .bool(false)
        } else if types.contains(.string("array")) {
            guard let items = schema["items"] else {
                throw Problem(reason: "\(path) is a list whose elements have no schema")
            }
            result["items"] = try transform(items, at: "\(path)[]")
        } else if types.isEmpty && schema["enum"] == nil && schema["const"] == nil {
            throw Problem(reason: "\(path) takes any value, which strict mode cannot describe")
        }
        if case .object(let definitions)? = schema["$defs"] {
            result["$defs"] = .object(try definitions.map { .init(key: $0.key, value: try transform($0.value, at: $0.key)) })
        }
        return result
    }
}
