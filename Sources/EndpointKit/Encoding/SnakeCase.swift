/// Foundation's `convertToSnakeCase` rule, for keys EndpointKit writes outside `JSONEncoder`
/// (query strings), so that a property has the same name in a query as in a JSON body.
enum SnakeCase {
    /// The key strategy of ``Server/makeEncoder()``: Foundation's snake_case rule, except that a
    /// `CodingKeys` raw value written by hand (one that differs from its case name, such as
    /// `case version = "schemaVersion"`) is sent verbatim.
    static func convert(_ path: [any CodingKey]) -> any CodingKey {
        guard let key = path.last else { return PlainKey("") }
        return PlainKey(convertUnlessExplicit(key))
    }

    /// `key` in snake_case, or as written when its raw value was spelled by hand. The check runs
    /// only for keys the conversion would change.
    static func convertUnlessExplicit(_ key: some CodingKey) -> String {
        let converted = convert(key.stringValue)
        return converted == key.stringValue || !CodingKeyName.isSpelledExplicitly(key) ? converted : key.stringValue
    }

    private struct PlainKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `transactionId` → `transaction_id`, `userID` → `user_id`, `myURLValue` → `my_url_value`.
    ///
    /// Words end where a lowercase letter meets an uppercase one (Unicode categories Lu and Lt),
    /// and where a run of capitals meets a lowercase letter (Ll): the last capital starts the next
    /// word. Each word is lowercased and words are joined with `_`; other characters, leading and
    /// trailing underscores stay as they are. Like Foundation, it steps over whole characters
    /// (grapheme clusters) around a capital, so `É` written with a combining accent is one letter.
    static func convert(_ key: String) -> String {
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            return convertASCII(key)  // property names nearly always are
        }
        let scalars = Array(key.unicodeScalars)
        let characterStarts = characterBoundaries(of: key)
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchFrom = characterStarts.count > 1 ? characterStarts[1] : scalars.count
        while let upper = scalars[searchFrom...].firstIndex(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = scalars[upper...].firstIndex(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == boundary(after: upper, in: characterStarts) {
                wordStart = upper
            } else {
                let lastCapital = boundary(before: lower, in: characterStarts)
                words.append(upper..<lastCapital)
                wordStart = lastCapital
            }
            searchFrom = lower + 1
        }
        words.append(wordStart..<scalars.count)
        var result = ""
        for (index, word) in words.enumerated() {
            if index > 0 { result += "_" }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[word])
            result += String(text).lowercased()
        }
        return result
    }

    /// The same rule over ASCII bytes, where every character is one byte.
    private static func convertASCII(_ key: String) -> String {
        let bytes = Array(key.utf8)
        let isUpper = { (byte: UInt8) in (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
        let isLower = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        guard bytes.dropFirst().contains(where: isUpper) || bytes.first.map(isUpper) == true else {
            return key  // nothing to split or lowercase
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 4)
        var wordCount = 0
        func appendWord(_ range: Range<Int>) {
            if wordCount > 0 { result.append(UInt8(ascii: "_")) }
            wordCount += 1
            for byte in bytes[range] { result.append(isUpper(byte) ? byte + 32 : byte) }
        }
        var wordStart = 0
        var searchFrom = min(1, bytes.count)
        while let upper = bytes[searchFrom...].firstIndex(where: isUpper) {
            appendWord(wordStart..<upper)
            guard let lower = bytes[upper...].firstIndex(where: isLower) else {
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
        return String(decoding: result, as: UTF8.self)
    }

    /// Scalar offsets where each character starts, and the total scalar count last.
    private static func characterBoundaries(of key: String) -> [Int] {
        var boundaries = [0]
        for character in key {
            boundaries.append(boundaries[boundaries.count - 1] + character.unicodeScalars.count)
        }
        return boundaries
    }

    /// The first character boundary after scalar offset `offset`.
    private static func boundary(after offset: Int, in boundaries: [Int]) -> Int {
        boundaries.first { $0 > offset } ?? boundaries[boundaries.count - 1]
    }

    /// The character boundary before the one at or below `offset`.
    private static func boundary(before offset: Int, in boundaries: [Int]) -> Int {
        let roundedDown = boundaries.last { $0 <= offset } ?? 0
        return boundaries.last { $0 < roundedDown } ?? 0
    }

    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    private static func isLower(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .lowercaseLetter
    }
}
