import Foundation

/// A `CodingKeys` enum whose case names are not in the binary (see ``CodingKeyName``), met where a
/// name was needed.
///
/// Our own encoders throw it. A `JSONEncoder`'s key strategy cannot throw, so
/// ``APIServer/makeEncoder()``'s writes ``markedKey`` in the key's place instead, and what reads the
/// encoder's output finds it there (``found(in:)``): the failure travels with the bytes of the one
/// call it belongs to.
package struct MissingCaseNames: Error, CustomStringConvertible {
    /// The printed name of the key type, `Module.Type.CodingKeys`.
    package let keyType: String

    init(keyType: Any.Type) {
        self.keyType = String(reflecting: keyType)
    }

    private init(keyTypeName: String) {
        self.keyType = keyTypeName
    }

    /// The sentence for the error: the type and the build setting to change.
    package var description: String {
        let declaring = keyType.split(separator: ".").dropLast().last.map(String.init) ?? keyType
        return "the case names of \(keyType) are not in the app's binary, which was built without reflection metadata (Xcode's Reflection Metadata Level \"None\" or \"Without Names\", SWIFT_REFLECTION_METADATA_LEVEL); EndpointKit needs them to tell a CodingKeys raw value written by hand from a property name, or the keys it sends would differ from a Debug build's. Set the level to \"All\" (the default) for the target that declares \(declaring)"
    }

    // MARK: - In a key strategy's output

    /// Starts with a NUL, which no key a Swift program means to send holds: the marked key cannot be
    /// mistaken for data.
    private static let prefix = "\u{0}EndpointKit.MissingCaseNames:"

    /// The key a key strategy returns for a key it cannot name; a NUL ends it too.
    package var markedKey: String { Self.prefix + keyType + "\u{0}" }

    /// The miss a key holds, if it is a ``markedKey``.
    package init?(markedKey key: String) {
        guard key.hasPrefix(Self.prefix), key.hasSuffix("\u{0}") else { return nil }
        self.init(keyTypeName: String(key.dropFirst(Self.prefix.count).dropLast()))
    }

    /// The first miss marked in encoded bytes: a ``markedKey`` as JSON escapes it (`\u0000…`) or
    /// as written raw. Two `memchr` scans, for a backslash and for a NUL, and no allocation.
    package static func found(in data: Data) -> MissingCaseNames? {
        data.withUnsafeBytes { bytes in found(in: bytes, marker: escapedPrefix) ?? found(in: bytes, marker: rawPrefix) }
    }

    private static let escapedPrefix = Array("\\u0000".utf8) + prefix.utf8.dropFirst()
    private static let rawPrefix = Array(prefix.utf8)

    /// The miss after the first `marker` in `bytes`, whose first byte (a backslash or a NUL) also ends it.
    private static func found(in bytes: UnsafeRawBufferPointer, marker: [UInt8]) -> MissingCaseNames? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while let hit = memchr(base + offset, Int32(marker[0]), bytes.count - offset) {
            let start = base.distance(to: UnsafeRawPointer(hit))
            offset = start + 1
            guard bytes[start...].starts(with: marker) else { continue }
            let name = bytes[(start + marker.count)...].prefix { $0 != marker[0] }
            return MissingCaseNames(keyTypeName: String(decoding: name, as: UTF8.self))
        }
        return nil
    }
}
