import EndpointKit
import Foundation

// The text forms of a JSON value that the contract writes: compact or indented JSON, and YAML.
// (`JSONValue` itself is public in the core, where payloads can use it.)
// MARK: - Writing

extension JSONValue {
    /// The value as JSON text: compact, or indented by two spaces with one member per line.
    package func jsonText(prettyPrinted: Bool = false) -> String {
        // Written as bytes, made a String once: appending to a String piece by piece (a comma, a
        // quote) cost more than the rest of an MCP tool call together.
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeJSON(into: &out, indent: prettyPrinted ? "" : nil)
        return String(decoding: out, as: UTF8.self)
    }

    private func writeJSON(into out: inout [UInt8], indent: String?) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): JSONValue.quote(text, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if let indent { out.append(contentsOf: ("\n" + indent + "  ").utf8) }
                element.writeJSON(into: &out, indent: indent.map { $0 + "  " })
            }
            if let indent { out.append(contentsOf: ("\n" + indent).utf8) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if let indent { out.append(contentsOf: ("\n" + indent + "  ").utf8) }
                JSONValue.quote(member.key, into: &out)
                out.append(contentsOf: (indent == nil ? ":" : ": ").utf8)
                member.value.writeJSON(into: &out, indent: indent.map { $0 + "  " })
            }
            if let indent { out.append(contentsOf: ("\n" + indent).utf8) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string, quoted and escaped.
    static func quote(_ text: String, into out: inout String) {
        var bytes: [UInt8] = []
        quote(text, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// `text` as a JSON string, its bytes appended to `out`: the text between escapes in one piece.
    static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    index += 1  // printable ASCII, the usual byte
                    continue
                }
                let (escape, length) = Self.escape(at: index, in: bytes)
                guard let escape else {
                    index += 1
                    continue
                }
                out.append(contentsOf: bytes[start..<index])
                out.append(contentsOf: escape.utf8)
                index += length
                start = index
            }
            out.append(contentsOf: bytes[start...])
        }
        out.append(UInt8(ascii: "\""))
    }

    /// What the character at `index` is written as, and how many bytes it takes; `nil` for one
    /// written as it is. Escaped: the quote, the backslash, control characters (YAML refuses C1
    /// and DEL raw), the line and paragraph separators and the byte order mark.
    private static func escape(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (String?, Int) {
        func followedBy(_ next: UInt8...) -> Bool {
            index + next.count < bytes.count && next.indices.allSatisfy { bytes[index + 1 + $0] == next[$0] }
        }
        switch bytes[index] {
        case UInt8(ascii: "\""): return ("\\\"", 1)
        case UInt8(ascii: "\\"): return ("\\\\", 1)
        case UInt8(ascii: "\n"): return ("\\n", 1)
        case UInt8(ascii: "\r"): return ("\\r", 1)
        case UInt8(ascii: "\t"): return ("\\t", 1)
        case 0..<0x20, 0x7F: return (unicodeEscape(UInt32(bytes[index])), 1)
        case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
            return (unicodeEscape(UInt32(bytes[index + 1])), 2)  // U+0080 to U+009F
        case 0xE2 where followedBy(0x80, 0xA8): return ("\\u2028", 3)
        case 0xE2 where followedBy(0x80, 0xA9): return ("\\u2029", 3)
        case 0xEF where followedBy(0xBB, 0xBF): return ("\\uFEFF", 3)
        default: return (nil, 1)
        }
    }

    /// `\u001F`: four upper-case hex digits.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }

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
