import EndpointKit
import EndpointKitContract
import Foundation

/// A strict RFC 8259 parser for what a model sends as tool arguments.
///
/// `JSONDecoder` is not enough there: it keeps the first of two equal keys (a reader of the same
/// text may keep the last), turns a number it cannot hold into "not valid JSON", and gives no
/// position. This parser refuses duplicated keys by their path, keeps numbers as their text (so a
/// validator can say `42.5` is not an integer), bounds the nesting, and says where the text broke.
package struct JSONParser {
    /// Why a text was refused, said for a model: `the field "note" appears twice`.
    package struct Failure: Error, Equatable {
        package let message: String
        /// Whether the text is not JSON at all (rather than JSON the arguments do not accept).
        package var isSyntax = false
    }

    /// The deepest nesting accepted in arguments: far more than any need, far less than a stack holds.
    package static let argumentDepth = 64

    private let bytes: [UInt8]
    private let maximumDepth: Int
    private let refusesDuplicateKeys: Bool
    private var index = 0
    /// The path of the value being read: keys and array positions.
    private var path: [PathComponent] = []

    enum PathComponent: Equatable {
        case key(String)
        case index(Int)
    }

    /// Parses `text` as one JSON value, nested at most `maximumDepth` levels deep; with
    /// `refusesDuplicateKeys`, an object that has a key twice is refused, else both are kept.
    package static func parse(_ text: String, maximumDepth: Int = argumentDepth, refusesDuplicateKeys: Bool = true) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), maximumDepth: maximumDepth, refusesDuplicateKeys: refusesDuplicateKeys)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.failure("there is more after the end of the value")
        }
        return value
    }

    private init(bytes: [UInt8], maximumDepth: Int, refusesDuplicateKeys: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.refusesDuplicateKeys = refusesDuplicateKeys
    }

    /// `ship_to.zip_code`, `items[2].sku`: a path as the validator's messages write it.
    static func text(of path: [PathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let position): text += "[\(position)]"
            }
        }
        return text
    }

    // MARK: - Values

    private mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure(misplaced(where: "a value"))
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [JSONValue.Member] = []
        var keys: Set<String> = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            leave()
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                if index == bytes.count { throw failure("the text ends before the object is closed") }
                if peek(UInt8(ascii: "}")) { throw failure("a comma before '}' (JSON has no trailing commas)") }
                if index < bytes.count, isLetter(bytes[index]) { throw failure("a field name without double quotes") }
                throw failure(misplaced(where: "a field name in double quotes"))
            }
            let key = try string()
            guard !refusesDuplicateKeys || keys.insert(key).inserted else {
                path.append(.key(key))
                throw Failure(message: "the field \"\(Self.text(of: path))\" appears twice; send each field once")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw failure("expected ':' after the field name \"\(key)\"") }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            let member = try value()
            path.removeLast()
            members.append(JSONValue.Member(key: key, value: member))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else if peek(UInt8(ascii: "}")) {
                index += 1
                leave()
                return .object(members)
            } else {
                throw failure(index == bytes.count ? "the text ends before the object is closed"
                                  : peek(UInt8(ascii: "/")) ? misplaced(where: "',' or '}'") : "expected ',' or '}' after a field")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            leave()
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try value())
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else if peek(UInt8(ascii: "]")) {
                index += 1
                leave()
                return .array(elements)
            } else {
                throw failure(index == bytes.count ? "the text ends before the array is closed" : "expected ',' or ']' after an element")
            }
        }
    }

    private var depth = 0

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= maximumDepth else {
            throw Failure(message: "the arguments are nested more than \(maximumDepth) levels deep; at most \(maximumDepth) levels are accepted")
        }
    }

    private mutating func leave() {
        depth -= 1
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw failure(misplaced(where: "a value"))
        }
        index += expected.count
    }

    // MARK: - Numbers

    /// A number's text, checked against the grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(Failure) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs a digit after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw failure("a number cannot start with 0") }
            if peek(UInt8(ascii: "x")) || peek(UInt8(ascii: "X")) { throw failure("a hexadecimal number (JSON numbers are decimal)") }
        } else {
            skipDigits()
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs a digit after '.'") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs a digit in its exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
    }

    /// What stands where `expected` should be, in words a model can act on: single quotes and
    /// comments are named, since models trained on JavaScript and Python write them.
    private func misplaced(where expected: String) -> String {
        guard index < bytes.count else { return "the text ends where \(expected) should be" }
        switch bytes[index] {
        case UInt8(ascii: "'"): return "single quotes where \(expected) should be (JSON takes double quotes)"
        case UInt8(ascii: "/"): return "a comment where \(expected) should be (JSON has none)"
        default: return "unexpected \(describe(bytes[index])) where \(expected) should be"
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Strings

    private mutating func string() throws(Failure) -> String {
        index += 1  // "
        // The text between escapes goes in whole, not scalar by scalar: a string without escapes
        // (nearly every one) is one copy of its bytes.
        var text = ""
        var runStart = index
        while true {
            guard index < bytes.count else { throw failure("a string is not closed") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = String(decoding: bytes[runStart..<index], as: UTF8.self)
                index += 1
                return text.isEmpty ? run : text + run
            }
            if byte < 0x20 { throw failure("a string holds a raw control character (write it as \\u\(String(format: "%04X", byte)))") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            text += String(decoding: bytes[runStart..<index], as: UTF8.self)
            index += 1
            guard index < bytes.count else { throw failure("a string is not closed") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): text += "\""
            case UInt8(ascii: "\\"): text += "\\"
            case UInt8(ascii: "/"): text += "/"
            case UInt8(ascii: "b"): text += "\u{8}"
            case UInt8(ascii: "f"): text += "\u{C}"
            case UInt8(ascii: "n"): text += "\n"
            case UInt8(ascii: "r"): text += "\r"
            case UInt8(ascii: "t"): text += "\t"
            case UInt8(ascii: "u"): text.unicodeScalars.append(try unicodeEscape())
            default:
                index -= 1
                throw failure("a backslash is followed by \(describe(escape)), which is not an escape JSON has")
            }
            runStart = index
        }
    }

    /// The scalar of `\uXXXX`, or of a surrogate pair `\uD83D\uDE00`.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try hexQuad()
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("\\u\(String(format: "%04X", first)) is half of a surrogate pair without its other half")
            }
            index += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure("\\u\(String(format: "%04X", first)) is not followed by the low half of a surrogate pair")
            }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw failure("\\u\(String(format: "%04X", first)) is half of a surrogate pair without its other half")
        }
        return scalar
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = PercentEncoding.hexValue(of: byte) else { throw failure("\\u needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    // MARK: - Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    /// `'}'`, `the byte 0xC3`: a byte as a message quotes it.
    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "the byte 0x%02X", byte)
    }

    /// A syntax error, with where it is: `at byte 17 (in "ship_to")`.
    private func failure(_ problem: String) -> Failure {
        let place = path.isEmpty ? "" : " (in \"\(Self.text(of: path))\")"
        return Failure(message: "the arguments are not valid JSON: \(problem), at byte \(index)\(place)", isSyntax: true)
    }
}
