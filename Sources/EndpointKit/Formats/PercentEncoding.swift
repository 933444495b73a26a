import Foundation

/// Percent-encoding with the RFC 3986 unreserved set, for query components and path segments.
package enum PercentEncoding {
    /// `text`, which is meant as part of a URL (a path template's literal text, a server's path
    /// prefix, a redirect's `Location`), with every byte RFC 3986 does not allow there written as
    /// `%XX`: spaces, non-ASCII text, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, and a `%`
    /// that does not start an escape. Escapes already present are kept.
    ///
    /// `URL(string:)` does this itself on Linux and on iOS 17 / macOS 14 and later, but returns `nil`
    /// on iOS 15–16 and macOS 12–13, which parse by the older RFC 1738/1808: escaping first gives one
    /// URL, byte for byte, on every supported OS.
    ///
    /// - Parameter isReference: Also keep `#`, `[` and `]` (a fragment, an IPv6 host), which a
    ///   whole URL reference may hold and a path may not.
    static func escapingDisallowed(in text: Substring, isReference: Bool = false) -> Substring {
        let utf8 = text.utf8
        func isEscape(at index: String.UTF8View.Index) -> Bool {
            let digits = utf8[utf8.index(after: index)...].prefix(2)
            return digits.count == 2 && digits.allSatisfy(isHexDigit)
        }
        func isAllowed(_ byte: UInt8, at index: String.UTF8View.Index) -> Bool {
            switch byte {
            case UInt8(ascii: "%"): isEscape(at: index)
            case UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"): isReference
            default: isUnreserved(byte) || isSubDelimiterOrPathPunctuation(byte)
            }
        }
        if utf8.indices.allSatisfy({ isAllowed(utf8[$0], at: $0) }) {
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for index in utf8.indices {
            let byte = utf8[index]
            if isAllowed(byte, at: index) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return Substring(String(decoding: bytes, as: UTF8.self))
    }

    /// A URL reference a server sent (a `Location`, a `Link` target, a `Next-Page` value) as an
    /// absolute URL, resolved against `base`; escaped first (see ``escapingDisallowed(in:isReference:)``)
    /// so that a space or raw UTF-8 in it means the same URL on every OS. `nil` when it is not a URL.
    static func resolve(_ reference: String, against base: URL?) -> URL? {
        let escaped = String(escapingDisallowed(in: reference[...], isReference: true))
        return URL(string: escaped, relativeTo: base)?.absoluteURL
    }

    /// RFC 3986 `sub-delims` and the other characters a path or query may hold as they are:
    /// `! $ & ' ( ) * + , ; =` and `: @ / ?`.
    private static func isSubDelimiterOrPathPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(of: byte) != nil
    }

    /// The value of one hexadecimal digit, either case: for `%XX` escapes, RFC 8187 values and
    /// JSON's `\uXXXX`.
    package static func hexValue(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `value` with every byte outside `A–Z a–z 0–9 - . _ ~` written as `%XX`.
    ///
    /// Form parsers decode the result to exactly `value`: `+`, `&`, `=`, `#`, `%`, `/`, spaces and
    /// non-ASCII text survive the round trip.
    package static func encode(_ value: String) -> String {
        let utf8 = value.utf8
        if utf8.allSatisfy(isUnreserved) {
            return value
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
