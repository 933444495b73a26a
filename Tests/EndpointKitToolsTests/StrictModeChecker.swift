import Foundation

/// An independent check of OpenAI's strict-mode rules on a schema, written from the rules rather
/// than from EndpointKit's transformation: every object closes (`additionalProperties: false`) and
/// requires every property; only supported keywords and formats; every `$ref` resolves in `$defs`.
/// Returns the violations, each with where it is.
enum StrictModeChecker {
    static let keywords: Set<String> = ["type", "enum", "const", "description", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "$defs", "format"]
    static let formats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]

    static func violations(of schema: Any) -> [String] {
        guard let root = schema as? [String: Any] else { return ["root: not an object"] }
        var found: [String] = []
        if root["type"] as? String != "object" { found.append("root: type is not object") }
        let definitions = root["$defs"] as? [String: Any] ?? [:]
        check(root, at: "root", definitions: definitions, into: &found)
        for (name, definition) in definitions {
            check(definition, at: "$defs/\(name)", definitions: definitions, into: &found)
        }
        return found
    }

    private static func check(_ node: Any, at path: String, definitions: [String: Any], into found: inout [String]) {
        guard let schema = node as? [String: Any] else { found.append("\(path): not an object"); return }
        for key in schema.keys where !keywords.contains(key) { found.append("\(path): unsupported keyword \(key)") }
        if let format = schema["format"] as? String, !formats.contains(format) { found.append("\(path): unsupported format \(format)") }
        if let reference = schema["$ref"] as? String {
            if schema.count != 1 { found.append("\(path): $ref with siblings") }
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            if !reference.hasPrefix("#/$defs/") || definitions[name] == nil { found.append("\(path): $ref \(reference) does not resolve") }
        }
        let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        if types.contains("object") {
            let properties = schema["properties"] as? [String: Any]
            if properties == nil { found.append("\(path): object without properties") }
            if schema["additionalProperties"] as? Bool != false { found.append("\(path): additionalProperties is not false") }
            if Set(schema["required"] as? [String] ?? []) != Set(properties?.keys.map { $0 } ?? []) { found.append("\(path): not every property is required") }
            for (name, property) in properties ?? [:] { check(property, at: "\(path).\(name)", definitions: definitions, into: &found) }
        }
        if types.contains("array") {
            if let items = schema["items"] { check(items, at: "\(path)[]", definitions: definitions, into: &found) } else { found.append("\(path): array without items") }
        }
        for (index, option) in (schema["anyOf"] as? [Any] ?? []).enumerated() {
            check(option, at: "\(path) anyOf \(index)", definitions: definitions, into: &found)
        }
    }
}
