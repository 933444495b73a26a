import Foundation

/// Foundation's snake_case key conversions, `convertToSnakeCase` and `convertFromSnakeCase`, with
/// the same results and a fraction of the cost.
///
/// Foundation steps over whole characters (grapheme clusters) and capitalizes words through its
/// locale machinery: about 5,000 instructions a key, a third of decoding a typical JSON answer.
/// Property names and JSON keys are nearly always plain ASCII, where every character is one byte
/// and the rules are simple, so this converts those byte by byte. Any key whose conversion is not
/// plain (non-ASCII letters, or punctuation in a word to be capitalized) goes to Foundation's own
/// strategy, so results are Foundation's on every platform by construction. A differential test
/// checks the two on tens of thousands of generated keys.
package enum SnakeCase {
    // MARK: - Key strategies

    /// The key encoding strategy of ``APIServer/makeEncoder()``: Foundation's snake_case rule, except
    /// that a `CodingKeys` raw value written by hand (one that differs from its case name, such as
    /// `case version = "schemaVersion"`) is sent verbatim. A key it cannot name for want of case
    /// names becomes a ``MissingCaseNames/markedKey``, which fails the call that wrote it.
    static func encodingKey(_ path: [any CodingKey]) -> any CodingKey {
        guard let key = path.last else { return PlainKey("") }
        do {
            return PlainKey(try convertUnlessExplicit(key))
        } catch {
            return PlainKey(error.markedKey)
        }
    }

    /// The key decoding strategy of ``APIServer/makeDecoder()``: Foundation's `convertFromSnakeCase`.
    static func decodingKey(_ path: [any CodingKey]) -> any CodingKey {
        guard let key = path.last else { return PlainKey("") }
        return PlainKey(fromSnakeCase(key.stringValue))
    }

    /// `key` in snake_case, or as written when its raw value was spelled by hand. The check runs
    /// only for keys the conversion would change.
    package static func convertUnlessExplicit(_ key: some CodingKey) throws(MissingCaseNames) -> String {
        let converted = toSnakeCase(key.stringValue)
        if converted == key.stringValue { return converted }
        return try CodingKeyName.isSpelledExplicitly(key) ? key.stringValue : converted
    }

    /// A key that is only its text: what key strategies return and receive.
    package struct PlainKey: CodingKey {
        package let stringValue: String
        package var intValue: Int? { nil }
        package init(_ stringValue: String) { self.stringValue = stringValue }
        package init?(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }

    // MARK: - camelCase to snake_case

    /// `transactionId` → `transaction_id`, `userID` → `user_id`, `myURLValue` → `my_url_value`.
    ///
    /// Foundation's rule: a word ends where a lowercase letter meets an uppercase one, and where a
    /// run of capitals meets a lowercase letter (the last capital starts the next word); words are
    /// lowercased and joined with `_`; everything else stays as it is.
    package static func toSnakeCase(_ key: String) -> String {
        var text = key
        return text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // Nothing to split or lowercase: the usual JSON key, returned without a copy.
            guard bytes.contains(where: isUpper) else { return key }
            return String(unsafeUninitializedCapacity: bytes.count * 2) { output in
                toSnakeCase(ascii: bytes, into: output)
            }
        } ?? foundationToSnakeCase(key)
    }

    /// Writes the snake_case form of the ASCII `bytes` into `output`, which has room for twice as
    /// many, and returns its length.
    private static func toSnakeCase(ascii bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var length = 0
        func appendWord(_ range: Range<Int>) {
            if length > 0 {
                output[length] = UInt8(ascii: "_")
                length += 1
            }
            for index in range {
                output[length] = isUpper(bytes[index]) ? bytes[index] | 0x20 : bytes[index]
                length += 1
            }
        }
        func firstIndex(from start: Int, where matches: (UInt8) -> Bool) -> Int? {
            var index = start
            while index < bytes.count {
                if matches(bytes[index]) { return index }
                index += 1
            }
            return nil
        }
        var wordStart = 0
        var searchFrom = min(1, bytes.count)
        while let upper = firstIndex(from: searchFrom, where: isUpper) {
            appendWord(wordStart..<upper)
            guard let lower = firstIndex(from: upper, where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                appendWord(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchFrom = lower + 1
        }
        appendWord(wordStart..<bytes.count)
        return length
    }

    // MARK: - snake_case to camelCase

    /// `transaction_id` → `transactionId`, `USER_NAME` → `userName`, `_id` → `_id`.
    ///
    /// Foundation's rule: leading and trailing underscores stay; a key with no other underscore
    /// stays as it is; otherwise the words between underscores are joined, the first lowercased
    /// and the others capitalized (`String.capitalized`).
    package static func fromSnakeCase(_ key: String) -> String {
        var text = key
        return text.withUTF8 { bytes -> String? in
            guard let first = bytes.firstIndex(where: { $0 != UInt8(ascii: "_") }) else { return key }
            var last = bytes.count - 1
            while bytes[last] == UInt8(ascii: "_") { last -= 1 }
            // One word: Foundation keeps it as it is, whatever its characters.
            guard bytes[first...last].contains(UInt8(ascii: "_")) else { return key }
            guard isPlainSnakeCase(bytes[first...last]) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                fromSnakeCase(ascii: bytes, words: first...last, into: output)
            }
        } ?? foundationFromSnakeCase(key)
    }

    /// Whether Foundation's conversion of these words is certain byte by byte: ASCII throughout,
    /// and the words after the first made of letters and digits, with no letter after a digit.
    /// (`String.capitalized` starts a new word at such a letter on some platforms, `1st` → `1St`,
    /// and treats punctuation differently from one version to the next: Foundation decides.)
    private static func isPlainSnakeCase(_ words: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var inFirstWord = true
        var afterDigit = false
        for byte in words {
            guard byte < 0x80 else { return false }
            if byte == UInt8(ascii: "_") {
                inFirstWord = false
                afterDigit = false
            } else if !inFirstWord {
                if isDigit(byte) {
                    afterDigit = true
                } else if !(isUpper(byte) || isLower(byte)) || afterDigit {
                    return false
                }
            }
        }
        return true
    }

    /// Writes the camelCase form of plain ASCII snake_case `bytes` into `output` and returns its
    /// length; `words` spans from the first to the last byte that is not an underscore.
    private static func fromSnakeCase(
        ascii bytes: UnsafeBufferPointer<UInt8>, words: ClosedRange<Int>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var length = 0
        func append(_ byte: UInt8) {
            output[length] = byte
            length += 1
        }
        for index in 0..<words.lowerBound { append(bytes[index]) }
        var wordIndex = 0
        var startsWord = true
        for index in words {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") {
                if !startsWord { wordIndex += 1 }  // `a__b` is two words, like `a_b`
                startsWord = true
                continue
            }
            // The first word is lowercased; each later one is capitalized: its first letter upper
            // case, the others lower case.
            let capital = startsWord && wordIndex > 0
            append(capital ? (isLower(byte) ? byte & ~0x20 : byte) : (isUpper(byte) ? byte | 0x20 : byte))
            startsWord = false
        }
        for index in (words.upperBound + 1)..<bytes.count { append(bytes[index]) }
        return length
    }

    // MARK: - Foundation's own conversions, for the keys above that are not plain

    /// Coders with Foundation's snake_case strategies, made once: a payload with non-ASCII keys
    /// converts some on every decode. Never reconfigured, so sharing them is safe.
    private static let foundationCoders: JSONCoders = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return JSONCoders(encoder: encoder, decoder: decoder)
    }()

    /// `key` as Foundation's `.convertToSnakeCase` writes it: one property encoded and read back.
    static func foundationToSnakeCase(_ key: String) -> String {
        struct OneProperty: Encodable {
            let key: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: PlainKey.self)
                try container.encodeNil(forKey: PlainKey(key))
            }
        }
        guard let json = try? foundationCoders.encoder.encode(OneProperty(key: key)),
              let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
              let converted = object.keys.first else { return key }
        return converted
    }

    /// `key` as Foundation's `.convertFromSnakeCase` reads it: one JSON member decoded.
    static func foundationFromSnakeCase(_ key: String) -> String {
        struct Keys: Decodable {
            let converted: String?
            init(from decoder: any Decoder) throws {
                converted = try decoder.container(keyedBy: PlainKey.self).allKeys.first?.stringValue
            }
        }
        guard let json = try? JSONSerialization.data(withJSONObject: [key: 0]),
              let converted = (try? foundationCoders.decoder.decode(Keys.self, from: json))?.converted else { return key }
        return converted
    }

    // MARK: - ASCII classes

    private static func isUpper(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
    private static func isLower(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}

extension JSONEncoder.KeyEncodingStrategy {
    /// The name `key` has on the wire under this strategy: in a query, a form, a JSON body, or a
    /// schema of one.
    package func wireName(for key: some CodingKey, at codingPath: [any CodingKey]) throws(MissingCaseNames) -> String {
        switch self {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            return try SnakeCase.convertUnlessExplicit(key)
        case .custom(let convert):
            let name = convert(codingPath + [key]).stringValue
            if let missing = MissingCaseNames(markedKey: name) { throw missing }
            return name
        @unknown default:
            return key.stringValue
        }
    }
}
