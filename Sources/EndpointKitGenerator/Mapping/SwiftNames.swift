#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
/// The names generated code gives what a document names: types after operations and schemas,
/// properties after JSON keys, so that the code reads as a person would have written it.
///
/// ```swift
/// SwiftNames.typeName(forOperationID: "read_item_items__item_id__get", method: "get", path: "/items/{item_id}")  // "ReadItem"
/// SwiftNames.propertyName(forKey: "next_cursor")   // ("nextCursor", roundTrips: true)
/// ```
public enum SwiftNames {
    /// An operation's struct name: its `operationId` in UpperCamelCase, without the suffix FastAPI
    /// appends to every generated one (the path with `_` for punctuation, then `_` and the method).
    public static func typeName(forOperationID operationID: String, method: String, path: String) -> String {
        var id = operationID
        let fastAPISuffix = String(path.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" }) + "_" + method.lowercased()
        if id.hasSuffix(fastAPISuffix), id.count > fastAPISuffix.count {
            id.removeLast(fastAPISuffix.count)
        }
        return upperCamel(id)
    }

    /// `read_item`, `listPets`, `get-user.v2` → `ReadItem`, `ListPets`, `GetUserV2`; a name that would
    /// start with a digit starts with `Operation`.
    public static func upperCamel(_ text: String) -> String {
        let name = words(of: text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = name.first else { return "Operation" }
        return first.isNumber ? "Operation" + name : name
    }

    /// `next_cursor`, `Content-Type`, `URLPath` → `nextCursor`, `contentType`, `urlPath`: the first
    /// word lowercased, the others capitalized.
    public static func lowerCamel(_ text: String) -> String {
        let parts = words(of: text)
        guard let first = parts.first else { return "value" }
        let name = first.lowercased() + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "_" + name : name
    }

    /// The name with backquotes when Swift reserves it: `` `default` ``, `` `class` ``.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Words Swift does not take as a plain identifier where the generator writes one.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "as", "Any", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "Type", "Protocol", "some", "any",
    ]

    /// Whether `name` is a plain Swift identifier (ASCII letters, digits and `_`, not starting with a digit).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// `pets` → `pet`, `categories` → `category`, `status` stays: the name of one element of a list.
    static func singular(_ name: String) -> String {
        if name.hasSuffix("ies"), name.count > 3 { return name.dropLast(3) + "y" }
        if name.hasSuffix("s"), !name.hasSuffix("ss"), !name.hasSuffix("us"), name.count > 1 { return String(name.dropLast()) }
        return name + "Item"
    }

    /// A JSON key as a Swift property name, and whether EndpointKit's default coders turn it back
    /// into the same key: `next_cursor` → `nextCursor` does; `userID` → `userID` does not (it is
    /// sent as `user_id`), so its type needs `CodingKeys` or coders with default keys.
    public static func propertyName(forKey key: String) -> (name: String, roundTrips: Bool) {
        let name = fromSnakeCase(key)
        guard isIdentifier(name) else { return (lowerCamel(key), false) }
        return (name, toSnakeCase(name) == key)
    }

    /// Names made unique in the order given: the first keeps its name, the next ones get `2`, `3`…
    /// A name in `reserved` (a type the generated code already uses) starts at `2`.
    public static func unique(_ names: [String], avoiding reserved: Set<String> = []) -> [String] {
        var seen: [String: Int] = [:]
        for name in reserved { seen[name] = 1 }
        var taken = Set(names).union(reserved)
        return names.map { name in
            let count = (seen[name] ?? 0) + 1
            seen[name] = count
            guard count > 1 else { return name }
            var suffix = count
            while taken.contains(name + String(suffix)) { suffix += 1 }
            taken.insert(name + String(suffix))
            return name + String(suffix)
        }
    }

    // MARK: - Words and Foundation's snake_case rules

    /// Words split at punctuation and at lower-to-upper case changes: `getUser_v2` → get, User, v2.
    private static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, previous.isLowercase || previous.isNumber, character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Foundation's `convertFromSnakeCase` for a key: words after the first capitalized, the rest of
    /// each word lowercased; a key without an inner `_` stays as it is.
    static func fromSnakeCase(_ key: String) -> String {
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        guard core.contains("_") else { return key }
        let parts = core.split(separator: "_", omittingEmptySubsequences: true)
        let joined = parts.enumerated().map { index, part in
            index == 0 ? part.lowercased() : part.prefix(1).uppercased() + part.dropFirst().lowercased()
        }.joined()
        return String(leading) + joined + String(trailing)
    }

    /// Foundation's `convertToSnakeCase`: a word ends where a lowercase letter meets an uppercase one
    /// and where a run of capitals meets a lowercase letter; words lowercased and joined with `_`.
    static func toSnakeCase(_ name: String) -> String {
        let characters = Array(name)
        var words: [String] = []
        var start = 0
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if index > start, character.isUppercase {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    words.append(String(characters[start..<index]))
                    start = index
                }
            }
            index += 1
        }
        words.append(String(characters[start...]))
        return words.map { $0.lowercased() }.joined(separator: "_")
    }
}
#endif
