/// The Swift name behind a coding key, which `CodingKey` itself does not expose.
///
/// Synthesized `CodingKeys` are enums whose case names are the property names, so the case name of
/// `case recordId = "record_id"` is `recordId` while its `stringValue` is `record_id`. Swift prints
/// a case's name through the runtime function `swift_EnumCaseName` (exported by the Swift runtime
/// on every platform since Swift 5; it is what `print(someEnumCase)` uses). A key that is not an
/// enum case (a struct key, a dictionary key) has no case name, and neither has any key in a binary
/// built without reflection metadata: then only the coding key itself is known.
enum CodingKeyName {
    /// `recordId` for `case recordId = "record_id"`; `nil` when `key` is not an enum case.
    static func swiftName(of key: some CodingKey) -> String? {
        enumCaseName(key).map { String(cString: $0) }
    }

    /// Whether the key's spelling was written by hand: an enum case whose raw value differs from
    /// its name (`case lastModified = "last_modified"`). Such a key is sent verbatim. A raw value
    /// equal to the case name cannot be told from an implicit one.
    static func isSpelledExplicitly(_ key: some CodingKey) -> Bool {
        guard let name = swiftName(of: key) else { return false }
        return name != key.stringValue
    }
}

@_silgen_name("swift_EnumCaseName")
private func enumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?
