/// Foundation's `convertToSnakeCase` rule, for keys EndpointKit writes outside `JSONEncoder`
/// (query strings), so that a property has the same name in a query as in a JSON body.
enum SnakeCase {
    /// `transactionId` → `transaction_id`, `userID` → `user_id`, `myURLValue` → `my_url_value`.
    ///
    /// Words end where a lowercase letter meets an uppercase one, and where a run of capitals meets
    /// a lowercase letter (the last capital starts the next word). Each word is lowercased and words
    /// are joined with `_`; other characters, leading and trailing underscores stay as they are.
    static func convert(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard scalars.count > 1, scalars.dropFirst().contains(where: isUpper) else {
            return key
        }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchFrom = 1
        while let upper = scalars[searchFrom...].firstIndex(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = scalars[upper...].firstIndex(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
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

    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    private static func isLower(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .lowercaseLetter
    }
}
