import Foundation

/// The Swift name behind a coding key, which `CodingKey` itself does not expose.
///
/// Synthesized `CodingKeys` are enums whose case names are the property names, so the case name of
/// `case recordId = "record_id"` is `recordId` while its `stringValue` is `record_id`. Swift prints
/// a case's name through the runtime function `swift_EnumCaseName` (exported by the Swift runtime
/// on every platform since Swift 5; it is what `print(someEnumCase)` uses). A key that is not an
/// enum case (a struct key, a dictionary key) has no case name, and neither has any key in a binary
/// built without reflection metadata: then only the coding key itself is known.
package enum CodingKeyName {
    /// The Swift name of `key` when it differs from its coding key (`recordId` for
    /// `case recordId = "record_id"`), else `nil`. Compares in place: the usual key, whose names
    /// agree, costs no allocation.
    package static func differingSwiftName(of key: some CodingKey) -> String? {
        guard let name = enumCaseName(key) else { return nil }
        var stringValue = key.stringValue
        let same = stringValue.withUTF8 { utf8 in
            strlen(name) == utf8.count && (utf8.isEmpty || memcmp(name, utf8.baseAddress!, utf8.count) == 0)
        }
        return same ? nil : String(cString: name)
    }

    /// Whether the key's spelling was written by hand: an enum case whose raw value differs from
    /// its name (`case lastModified = "last_modified"`). Such a key is sent verbatim. A raw value
    /// equal to the case name cannot be told from an implicit one.
    package static func isSpelledExplicitly(_ key: some CodingKey) -> Bool {
        differingSwiftName(of: key) != nil
    }
}

@_silgen_name("swift_EnumCaseName")
private func enumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?
