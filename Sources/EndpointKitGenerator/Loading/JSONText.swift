#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Foundation
import Yams

/// A tree composed from a JSON document, written as JSON again: what ``DocumentLoader`` hands
/// Foundation's JSON decoder once the lenient pre-pass has repaired the tree.
///
/// A quoted scalar is a string; an unquoted one is written as it stands when it is a JSON number,
/// `true`, `false` or `null`, and as a string otherwise.
///
/// ```swift
/// let text = JSONText.data(of: try Yams.compose(yaml: #"{"a": [1, "b", null]}"#)!)
/// // {"a":[1,"b",null]}
/// ```
enum JSONText {
    static func data(of node: Node) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        write(node, to: &output)
        return Data(output)
    }

    private static func write(_ node: Node, to output: inout [UInt8]) {
        switch node {
        case .mapping(let mapping):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in mapping.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key.string ?? "", to: &output)
                output.append(UInt8(ascii: ":"))
                write(value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .sequence(let sequence):
            output.append(UInt8(ascii: "["))
            for (index, element) in sequence.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .scalar(let scalar):
            // A scalar the pre-pass made (a repaired bound) has no style of its own: `.any`.
            if scalar.style == .plain || scalar.style == .any, isBare(scalar.string) {
                output.append(contentsOf: scalar.string.utf8)
            } else {
                writeString(scalar.string, to: &output)
            }
        case .alias:
            // Composing resolves aliases; JSON has none.
            output.append(contentsOf: "null".utf8)
        }
    }

    /// Whether `text` is a JSON literal: a number as RFC 8259 spells one, `true`, `false`, `null`.
    static func isBare(_ text: String) -> Bool {
        if text == "true" || text == "false" || text == "null" { return true }
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { (0x30...0x39).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        let leading = bytes.first
        let whole = digits()
        guard whole == 1 || (whole > 1 && leading != UInt8(ascii: "0")) else { return false }  // no 01
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
#endif
