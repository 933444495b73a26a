import Foundation

/// The Swift name behind a coding key, which `CodingKey` itself does not expose.
///
/// Synthesized `CodingKeys` are enums whose case names are the property names, so the case name of
/// `case recordId = "record_id"` is `recordId` while its `stringValue` is `record_id`. Swift prints
/// a case's name through the runtime function `swift_EnumCaseName` (exported by the Swift runtime
/// on every platform since Swift 5; it is what `print(someEnumCase)` uses). A key that is not an
/// enum case (a struct key, a dictionary key) has no case name.
///
/// Case names live in the binary's reflection metadata. An app target built with Xcode's
/// Reflection Metadata Level "None" or "Without Names" (`-disable-reflection-metadata`,
/// `-disable-reflection-names`) has none, and `swift_EnumCaseName` then answers `nil` for its
/// enums. Guessing would send `case version = "schemaVersion"` as `schema_version` in Release and
/// `schemaVersion` in Debug, so the miss is counted instead (``missesOnThisThread``) and the request
/// being encoded fails with a sentence that names the type and the build setting
/// (``missingNamesProblem``).
package enum CodingKeyName {
    /// The Swift name of `key` when it differs from its coding key (`recordId` for
    /// `case recordId = "record_id"`), else `nil`. Compares in place: the usual key, whose names
    /// agree, costs no allocation.
    package static func differingSwiftName<Key: CodingKey>(of key: Key) -> String? {
        guard let name = enumCaseName(key) else {
            if isEnum(Key.self) { noteMissingNames(of: Key.self) }
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
    package static func isSpelledExplicitly(_ key: some CodingKey) -> Bool {
        differingSwiftName(of: key) != nil
    }

    /// How many enum keys without a case name this thread has met. Encoding is synchronous, so a
    /// request builder reads it before and after encoding to learn whether its own keys missed:
    /// a thread-local count (two reads of a pthread key, no allocation), not a process-wide flag
    /// that would fail unrelated calls.
    package static var missesOnThisThread: Int {
        Int(bitPattern: pthread_getspecific(missesKey))
    }

    /// Why the last miss happened: a sentence naming the type and the build setting.
    package static var missingNamesProblem: String {
        missingNames.withLock { $0 } ?? "the case names of a CodingKeys enum are not in the app's binary"
    }

    private static let missingNames = Locked<String?>(nil)

    private static let missesKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static func noteMissingNames(of type: Any.Type) {
        pthread_setspecific(missesKey, UnsafeRawPointer(bitPattern: missesOnThisThread + 1))
        let problem = "the case names of \(String(reflecting: type)) are not in the app's binary, which was built without reflection metadata (Xcode's Reflection Metadata Level \"None\" or \"Without Names\", SWIFT_REFLECTION_METADATA_LEVEL); EndpointKit needs them to tell a CodingKeys raw value written by hand from a property name, or the keys it sends would differ from a Debug build's. Set the level to \"All\" (the default) for the target that declares \(String(describing: type))"
        missingNames.withLock { $0 = problem }
    }

    /// Whether `type` is an enum. The first word of a type's metadata is its kind (the Swift ABI,
    /// stable on Apple platforms since Swift 5): 0x201 for an enum. It is there whatever the
    /// reflection metadata level, unlike case names.
    static func isEnum(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x201
    }
}

@_silgen_name("swift_EnumCaseName")
private func enumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?
