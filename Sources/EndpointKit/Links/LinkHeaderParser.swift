import Foundation

/// Parses `Link` header values (RFC 8288 §3):
/// `<uri>; rel="next"; title="x", <uri2>; rel=last`.
///
/// Commas separate links except inside `<…>` and quoted strings. A link that does not follow the
/// grammar is dropped up to the next top-level comma; the parser never reads past the value, so
/// its cost is linear in the header's length.
enum LinkHeaderParser {
    static func links(in header: String, base: URL?) -> [WebLink] {
        var links: [WebLink] = []
        var scanner = Scanner(bytes: Array(header.utf8))
        while !scanner.isAtEnd {
            scanner.skip { $0 == UInt8(ascii: ",") || isWhitespace($0) }
            if scanner.isAtEnd { break }
            if let link = parseLink(&scanner, base: base) {
                links.append(link)
            }
            scanner.skipToNextLink()
        }
        return links
    }

    private static func parseLink(_ scanner: inout Scanner, base: URL?) -> WebLink? {
        guard scanner.take(UInt8(ascii: "<")), let target = scanner.read(until: UInt8(ascii: ">")) else { return nil }
        var relations: [String] = []
        var parameters: [String: String] = [:]
        var sawRelation = false
        while true {
            scanner.skip(while: isWhitespace)
            guard scanner.take(UInt8(ascii: ";")) else { break }
            scanner.skip(while: isWhitespace)
            let name = scanner.readToken().lowercased()
            guard !name.isEmpty else { return nil }
            scanner.skip(while: isWhitespace)
            var value = ""
            if scanner.take(UInt8(ascii: "=")) {
                scanner.skip(while: isWhitespace)
                guard let read = scanner.peek == UInt8(ascii: "\"") ? scanner.readQuoted() : scanner.readToken() as String? else { return nil }
                value = read
            }
            if name == "rel" {
                guard !sawRelation else { continue }  // RFC 8288 §3.3: only the first rel counts
                sawRelation = true
                relations = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
            } else if parameters[name] == nil {
                parameters[name] = value
            }
        }
        guard let url = PercentEncoding.resolve(target, against: base) else { return nil }
        return WebLink(url: url, relations: relations, parameters: parameters)
    }

    fileprivate static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// A cursor over the header's bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index >= bytes.count }
        var peek: UInt8? { isAtEnd ? nil : bytes[index] }

        mutating func skip(while predicate: (UInt8) -> Bool) {
            while let byte = peek, predicate(byte) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// The text up to `terminator`, which is consumed; `nil` when it never comes.
        mutating func read(until terminator: UInt8) -> String? {
            guard let end = bytes[index...].firstIndex(of: terminator) else {
                index = bytes.count
                return nil
            }
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }

        /// An RFC 9110 token (parameter names, unquoted values).
        mutating func readToken() -> String {
            let start = index
            // `/` and `:` too, for unquoted media types and URIs in the wild.
            skip { HeaderRules.isTokenCharacter($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A quoted string without its quotes, `\x` read as `x`; `nil` when it does not close.
        mutating func readQuoted() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var value: [UInt8] = []
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return nil }
                    value.append(escaped)
                    index += 1
                default:
                    value.append(byte)
                }
            }
            return nil
        }

        /// Past the next comma outside `<…>` and quoted strings (the end of this link).
        mutating func skipToNextLink() {
            while let byte = peek {
                switch byte {
                case UInt8(ascii: ","):
                    index += 1
                    return
                case UInt8(ascii: "\""):
                    if readQuoted() == nil { index = bytes.count }
                case UInt8(ascii: "<"):
                    index += 1
                    if read(until: UInt8(ascii: ">")) == nil { index = bytes.count }
                default:
                    index += 1
                }
            }
        }
    }
}
