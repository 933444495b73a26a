import Foundation

/// The file name a `Content-Disposition` header suggests (RFC 6266), made safe to use as one.
///
/// `filename*` (RFC 8187: `UTF-8''%E2%82%AC%20rates.pdf`) is preferred over `filename`, as the RFC
/// asks. A server is not trusted with the name: path separators (`/`, `\`) keep only what follows
/// the last one, control characters and the characters Windows or FAT refuse are removed, leading
/// dots are dropped (no hidden files, no `.` or `..`), and the name is cut to 255 bytes of UTF-8
/// keeping its extension. A name with nothing left is `nil`.
enum ContentDisposition {
    /// The safe file name in `header`, or `nil`.
    static func filename(in header: String) -> String? {
        let parameters = self.parameters(of: header)
        let extended = parameters["filename*"].flatMap(decodeExtended)
        guard let name = extended ?? parameters["filename"] else { return nil }
        return sanitized(name)
    }

    /// The header's parameters by lowercased name; the disposition type itself is skipped.
    static func parameters(of header: String) -> [String: String] {
        var result: [String: String] = [:]
        var scalars = Substring(header).unicodeScalars[...]
        // Skip the disposition type (`attachment`, `inline`).
        while let first = scalars.first, first != ";" { scalars.removeFirst() }
        while !scalars.isEmpty {
            scalars.removeFirst()  // ;
            skipSpaces(&scalars)
            var name = ""
            while let first = scalars.first, first != "=", first != ";" {
                name.unicodeScalars.append(first)
                scalars.removeFirst()
            }
            name = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard scalars.first == "=" else { continue }
            scalars.removeFirst()
            skipSpaces(&scalars)
            var value = ""
            if scalars.first == "\"" {
                // quoted-string: `\` escapes the next character.
                scalars.removeFirst()
                while let first = scalars.first, first != "\"" {
                    scalars.removeFirst()
                    if first == "\\", let escaped = scalars.first {
                        value.unicodeScalars.append(escaped)
                        scalars.removeFirst()
                    } else {
                        value.unicodeScalars.append(first)
                    }
                }
                if !scalars.isEmpty { scalars.removeFirst() }  // closing quote
                while let first = scalars.first, first != ";" { scalars.removeFirst() }
            } else {
                while let first = scalars.first, first != ";" {
                    value.unicodeScalars.append(first)
                    scalars.removeFirst()
                }
                value = value.trimmingCharacters(in: .whitespaces)
            }
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }

    /// `UTF-8''%E2%82%AC%20rates.pdf` → `€ rates.pdf` (RFC 8187); only UTF-8 and ISO-8859-1.
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        var bytes: [UInt8] = []
        var input = Array(parts[2].utf8)[...]
        while let byte = input.first {
            input.removeFirst()
            if byte == UInt8(ascii: "%") {
                guard input.count >= 2, let high = PercentEncoding.hexValue(of: input[input.startIndex]), let low = PercentEncoding.hexValue(of: input[input.startIndex + 1]) else { return nil }
                bytes.append(high << 4 | low)
                input.removeFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        switch charset {
        case "utf-8":
            // `String(validating:as:)` needs iOS 18 / macOS 15: decode with repair, and keep the
            // result only if nothing was repaired (a repair changes the bytes).
            let text = String(decoding: bytes, as: UTF8.self)
            return text.utf8.elementsEqual(bytes) ? text : nil
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }

    /// A name that cannot leave the folder it is saved in, hide itself or break a file system.
    static func sanitized(_ name: String) -> String? {
        // By scalar, not by Character: a separator followed by a combining mark is one Character
        // (`/\u{301}`) that equals neither "/" nor "\\", yet a file system still reads the "/".
        let separator = name.unicodeScalars.lastIndex { $0 == "/" || $0 == "\\" }
        let last = separator.map { name.unicodeScalars[name.unicodeScalars.index(after: $0)...] } ?? name.unicodeScalars[...]
        var scalars = String.UnicodeScalarView()
        for scalar in last {
            let refused = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || "<>:\"|?*".unicodeScalars.contains(scalar)
                || scalar.properties.generalCategory == .format  // bidirectional overrides that disguise an extension
            if !refused { scalars.append(scalar) }
        }
        // No leading dot (a hidden file, `.`, `..`) or space; no trailing ones, which Windows drops.
        var safe = String(scalars).trimmingCharacters(in: Self.trimmed)
        guard !safe.isEmpty else { return nil }
        if safe.utf8.count > 255 {
            let dot = safe.lastIndex(of: ".")
            let suffix = dot.map { String(safe[$0...]) }.flatMap { $0.utf8.count <= 16 ? $0 : nil } ?? ""
            var stem = String(safe.dropLast(suffix.count))
            while stem.utf8.count + suffix.utf8.count > 255 { stem.removeLast() }
            safe = (stem + suffix).trimmingCharacters(in: Self.trimmed)
        }
        return safe
    }

    private static let trimmed = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "."))

    private static func skipSpaces(_ scalars: inout Substring.UnicodeScalarView.SubSequence) {
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    }
}
