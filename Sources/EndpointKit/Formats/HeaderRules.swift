/// Header rules: case-insensitive names, and validation against header injection.
enum HeaderRules {
    /// Sets `name` to `value` in `headers`, replacing the same name in any case.
    static func set(_ value: String, for name: String, in headers: inout [String: String]) {
        for other in headers.keys where other != name && sameName(other, name) {
            headers.removeValue(forKey: other)
        }
        headers[name] = value
    }

    /// Whether two header names are the same, ignoring ASCII case.
    static func sameName(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count
            && zip(first.utf8, second.utf8).allSatisfy { lowercase($0) == lowercase($1) }
    }

    /// What is wrong with a header, or `nil` when it may be sent: the name must be an RFC 9110
    /// token, and the value may not hold CR, LF, NUL or other control characters except tab.
    static func problem(name: String, value: String) -> String? {
        if name.isEmpty || !name.utf8.allSatisfy(isTokenCharacter) {
            return "the header name \(quoted(name)) is not a valid HTTP token"
        }
        if let bad = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            let character = bad == 0x0D ? "CR" : bad == 0x0A ? "LF" : "control character 0x\(String(bad, radix: 16))"
            return "the value of header \(name) contains \(character), which could inject headers"
        }
        return nil
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Whether `byte` may be part of an RFC 9110 token.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
    }
}
