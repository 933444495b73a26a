#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
/// How a document's JSON keys (and query and form names) become Swift property names.
///
/// When every key survives EndpointKit's snake_case conversion both ways (`next_cursor` →
/// `nextCursor` → `next_cursor`), the generated code uses the default coders and needs no
/// `CodingKeys`: the code a person writes for such an API. Otherwise (a camelCase API, keys such as
/// `Content-Type` or `@id`) the generated server keeps keys as they are, and a property whose Swift
/// name differs from its key spells the key out in `CodingKeys`.
enum KeyStyle: Equatable {
    /// `APIServer.makeEncoder()` and `APIServer.makeDecoder()` as they are.
    case snakeCase
    /// The same coders with `.useDefaultKeys`: keys are the `CodingKeys` raw values.
    case asWritten

    /// The style that round-trips every key given.
    static func fitting(_ keys: some Sequence<String>) -> KeyStyle {
        keys.allSatisfy { SwiftNames.propertyName(forKey: $0).roundTrips } ? .snakeCase : .asWritten
    }

    /// The property name for `key`, and the coding key to spell out when the coders would not
    /// derive `key` from that name.
    func property(forKey key: String) -> (name: String, codingKey: String?) {
        switch self {
        case .snakeCase:
            return (SwiftNames.propertyName(forKey: key).name, nil)
        case .asWritten:
            let plain = SwiftNames.isIdentifier(key) && !key.contains("_") && key.first?.isLowercase == true
            let name = plain ? key : SwiftNames.lowerCamel(key)
            return (name, name == key ? nil : key)
        }
    }
}
#endif
