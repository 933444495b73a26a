import EndpointKit

/// One short line that tells a model what a tool's arguments look like, added to the message for
/// arguments that are not one JSON object (`customer_id=42`, `{'id': 1}`, `{id: 1}`): the fields,
/// their types and which are required, read from the tool's own schema.
///
/// `send one JSON object with double-quoted names, such as {"customer_id": integer, "note":
/// string or null}; "customer_id" is required`
enum ArgumentShape {
    /// At most this many fields are listed; the rest are counted.
    static let fieldLimit = 12

    /// The line for the arguments' schema (an object schema with `properties` and `required`).
    static func line(for schema: JSONValue) -> String {
        let properties = schema["properties"]?.objectMembers ?? []
        var fields = properties.prefix(fieldLimit).map { "\(JSONValue.string($0.key).jsonText()): \(typeName(of: $0.value, depth: 0))" }
        if properties.count > fieldLimit { fields.append("… (\(properties.count - fieldLimit) more)") }
        let required = (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        let requirement = switch required.count {
        case 0: properties.isEmpty ? "" : "; every field is optional"
        case 1: "; \(JSONValue.string(required[0]).jsonText()) is required"
        default: "; " + required.map { JSONValue.string($0).jsonText() }.joined(separator: ", ") + " are required"
        }
        return "send one JSON object with double-quoted names, such as {\(fields.joined(separator: ", "))}\(requirement)"
    }

    /// `integer`, `string or null`, `array of string`, `one of "asc", "desc"`: a schema's type in
    /// a few words.
    static func typeName(of schema: JSONValue, depth: Int) -> String {
        if let values = schema["enum"]?.arrayValue {
            let shown = values.prefix(4).map { $0.jsonText() }.joined(separator: ", ")
            return "one of " + shown + (values.count > 4 ? ", …" : "")
        }
        if let value = schema["const"] { return value.jsonText() }
        if let options = schema["anyOf"]?.arrayValue ?? schema["oneOf"]?.arrayValue {
            var names: [String] = []
            for option in options {
                let name = typeName(of: option, depth: depth)
                if !names.contains(name) { names.append(name) }
            }
            return names.joined(separator: " or ")
        }
        if schema["$ref"] != nil { return "object" }
        let types = schema["type"]?.arrayValue?.compactMap(\.stringValue) ?? schema["type"]?.stringValue.map { [$0] } ?? []
        guard !types.isEmpty else { return "any value" }
        return types.map { type in
            guard type == "array", depth == 0, let items = schema["items"] else { return type }
            return "array of " + typeName(of: items, depth: depth + 1)
        }.joined(separator: " or ")
    }
}
