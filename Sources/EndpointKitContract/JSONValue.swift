import EndpointKit
import Foundation

/// A JSON document as a tree whose objects keep their keys in order, so that a schema or an
/// OpenAPI document is written the same way every time (and reads in a sensible order).
///
/// Numbers keep their text: `UInt64.max` as a bound survives, which `Double` would round.
package indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One key and its value in an object.
    package struct Member: Hashable, Sendable {
        package var key: String
        package var value: JSONValue

        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    package static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// An object from pairs in the order given.
    package static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    /// The value of `key` when this is an object that has it.
    package subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
            self = .object(members)
        }
    }

    package var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    package var objectMembers: [Member]? {
        if case .object(let members) = self { members } else { nil }
    }
}

// MARK: - Reading

extension JSONValue: Decodable {
    /// Reads any JSON. Object keys come back sorted, since `Decoder` does not keep their order.
    package init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                Member(key: $0.stringValue, value: try object.decode(JSONValue.self, forKey: $0))
            })
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
            } else if let integer = try? single.decode(UInt64.self) {
                self = .integer(integer)
            } else if let number = try? single.decode(Double.self) {
                self = .number(JSONValue.text(of: number))
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    /// The JSON text of a finite number: `2` rather than `2.0`.
    static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

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
