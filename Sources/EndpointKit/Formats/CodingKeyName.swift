import Foundation

/// The Swift name behind a coding key, which `CodingKey` itself does not expose.
///
/// Synthesized `CodingKeys` are enums whose case names are the property names, so the case name of
/// `case recordId = "record_id"` is `recordId` while its `stringValue` is `record_id`. No public
/// API returns it: `CodingKey` refines `CustomStringConvertible` with a description of its
/// `stringValue`, and a `Mirror` of a case without a payload has no children. Swift prints a
/// case's name through the runtime function `swift_EnumCaseName` (exported on every platform since
/// Swift 5; what `print` uses for an enum of its own), and this is its one caller. A key that is
/// not an enum case (a struct key, a dictionary key) has no case name.
///
/// Case names live in the binary's reflection metadata. An app target built with Xcode's
/// Reflection Metadata Level "None" or "Without Names" has none. Guessing would send
/// `case version = "schemaVersion"` as `schema_version` in Release and `schemaVersion` in Debug,
/// so a lookup that needs a missing name throws ``MissingCaseNames``, which names the type and the
/// build setting, and the request or schema being made fails with it.
package enum CodingKeyName {
    /// The Swift name of `key` when it differs from its coding key (`recordId` for
    /// `case recordId = "record_id"`), else `nil`. Compares in place: the usual key, whose names
    /// agree, costs no allocation.
    package static func differingSwiftName<Key: CodingKey>(of key: Key) throws(MissingCaseNames) -> String? {
        guard let name = enumCaseName(key) else {
            // The display style comes from the type's metadata kind, there at every metadata level.
            if Mirror(reflecting: key).displayStyle == .enum { throw MissingCaseNames(keyType: Key.self) }
            return nil
        }
        var stringValue = key.stringValue
        let same = stringValue.withUTF8 { utf8 in
            strlen(name) == utf8.count && (utf8.isEmpty || memcmp(name, utf8.baseAddress!, utf8.count) == 0)
        }
        return same ? nil : String(cString: name)
    }

    /// Whether the key's spelling was written by hand: an enum case whose raw value differs from
    /// its name (`case lastModified = "last_modified"`). Such a key is sent verbatim. A raw value
    /// equal to the case name cannot be told from an implicit one.
    package static func isSpelledExplicitly(_ key: some CodingKey) throws(MissingCaseNames) -> Bool {
        try differingSwiftName(of: key) != nil
    }
}

@_silgen_name("swift_EnumCaseName")
private func enumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?
