import EndpointKit
import Foundation

// The text forms of a JSON value that the contract writes: compact or indented JSON, and YAML.
// (`JSONValue` itself is public in the core, where payloads can use it.)
// MARK: - Writing

extension JSONValue {
    /// The value as JSON text: compact, or indented by two spaces with one member per line.
    package func jsonText(prettyPrinted: Bool = false) -> String {
        var out = ""
        writeJSON(into: &out, indent: prettyPrinted ? "" : nil)
        return out
    }

    private func writeJSON(into out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): JSONValue.quote(text, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                if let indent { out += "\n" + indent + "  " }
                element.writeJSON(into: &out, indent: indent.map { $0 + "  " })
            }
            if let indent { out += "\n" + indent }
            out += "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                if let indent { out += "\n" + indent + "  " }
                JSONValue.quote(member.key, into: &out)
                out += indent == nil ? ":" : ": "
                member.value.writeJSON(into: &out, indent: indent.map { $0 + "  " })
            }
            if let indent { out += "\n" + indent }
            out += "}"
        }
    }

    /// A JSON string literal. Its escapes (`\"`, `\\`, `\n`, `\uXXXX`, …) are valid in a YAML
    /// double-quoted scalar too, so the YAML writer uses it as it is.
    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF:
                // Control characters (YAML refuses C1 and DEL raw) and the line separators.
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The value as a YAML 1.2 document in block style: objects as `key: value` lines, arrays as
    /// `- ` items. Strings that could read as anything else (a number, `true`, `null`, text with
    /// `:` or `#`) are double-quoted.
    func yamlText() -> String {
        var out = ""
        switch self {
        case .object(let members) where !members.isEmpty: JSONValue.writeYAML(members: members, into: &out, indent: "")
        case .array(let elements) where !elements.isEmpty: JSONValue.writeYAML(elements: elements, into: &out, indent: "")
        default: out += yamlScalar + "\n"
        }
        return out
    }

    private static func writeYAML(members: [Member], into out: inout String, indent: String) {
        for member in members {
            out += indent + yamlString(member.key) + ":"
            member.value.writeYAMLValue(into: &out, indent: indent)
        }
    }

    private static func writeYAML(elements: [JSONValue], into out: inout String, indent: String) {
        for element in elements {
            if case .object(let members) = element, !members.isEmpty {
                // `- first: value`, the other members aligned under `first`.
                var item = ""
                writeYAML(members: members, into: &item, indent: indent + "  ")
                out += indent + "- " + item.dropFirst(indent.count + 2)
            } else {
                out += indent + "-"
                element.writeYAMLValue(into: &out, indent: indent)
            }
        }
    }

    /// Writes the value after `key:` or `-`: a scalar on the same line, a collection below it.
    private func writeYAMLValue(into out: inout String, indent: String) {
        switch self {
        case .object(let members) where !members.isEmpty:
            out += "\n"
            JSONValue.writeYAML(members: members, into: &out, indent: indent + "  ")
        case .array(let elements) where !elements.isEmpty:
            out += "\n"
            JSONValue.writeYAML(elements: elements, into: &out, indent: indent + "  ")
        default:
            out += " " + yamlScalar + "\n"
        }
    }

    private var yamlScalar: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let text): text
        case .string(let text): JSONValue.yamlString(text)
        case .array: "[]"
        case .object: "{}"
        }
    }

    /// Plain when the text can only read back as this string; double-quoted otherwise.
    private static func yamlString(_ text: String) -> String {
        let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]
        let plain = !text.isEmpty
            && !reserved.contains(text.lowercased())
            && text.utf8.first.map { isLetter($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "/") } == true
            && text.utf8.allSatisfy { isLetter($0) || isDigit($0) || "_-./".utf8.contains($0) }
        if plain { return text }
        var out = ""
        quote(text, into: &out)
        return out
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
