/// An endpoint as its JSON body: every property except the ``Restful`` description and the
/// properties bound to path placeholders.
///
/// It hands the real encoder (`JSONEncoder`, with all its strategies) a thin view that drops those
/// keys from the top-level container, so the body is written in one pass.
struct BodyEncoding<Value: Encodable>: Encodable {
    let value: Value
    /// Swift names of the properties to leave out.
    let excludedKeys: Set<String>

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: ExcludingEncoder(base: encoder, excludedKeys: excludedKeys))
    }
}

private struct ExcludingEncoder: Encoder {
    let base: any Encoder
    let excludedKeys: Set<String>
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ExcludingContainer(base: base.container(keyedBy: type), excludedKeys: excludedKeys))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { base.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { base.singleValueContainer() }
}

/// Forwards everything to `base` except the excluded keys (and `Restful` values).
private struct ExcludingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let excludedKeys: Set<String>
    var codingPath: [any CodingKey] { base.codingPath }

    private func keeps(_ key: Key) -> Bool {
        excludedKeys.isEmpty || !excludedKeys.contains(key.stringValue)
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        guard keeps(key), !(value is Restful) else { return }
        try base.encode(value, forKey: key)
    }

    mutating func encodeNil(forKey key: Key) throws { if keeps(key) { try base.encodeNil(forKey: key) } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if keeps(key) { try base.encode(value, forKey: key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        base.nestedContainer(keyedBy: keyType, forKey: key)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        base.nestedUnkeyedContainer(forKey: key)
    }

    mutating func superEncoder() -> any Encoder { base.superEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { base.superEncoder(forKey: key) }
}
