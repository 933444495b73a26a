/// An endpoint as a ``BodyWriter`` sees it: every property except the ``Restful`` description,
/// the properties bound to path placeholders and the `@QueryItem` and `@HeaderField` properties.
/// A `@Body` property is kept aside, to be written on its own (see ``ParameterEncoder/wholeBody``).
///
/// It hands the writer's encoder (`JSONEncoder`, with all its strategies) a thin view of the
/// top-level container that passes those properties to a ``ParameterEncoder`` instead, so the
/// endpoint is encoded in one pass. A writer that encodes it again gets the same view, and the
/// parameters are placed once.
struct BodyEncoding<Value: Encodable>: Encodable, EndpointProperties {
    let value: Value
    /// Receives the properties that do not belong in the body.
    let parameters: ParameterEncoder

    func encode(to encoder: any Encoder) throws {
        let routes = !parameters.placed
        parameters.placed = true
        try value.encode(to: ExcludingEncoder(base: encoder, parameters: parameters, routes: routes))
    }
}

private struct ExcludingEncoder: Encoder {
    let base: any Encoder
    let parameters: ParameterEncoder
    /// `false` on a second pass: the first placed the parameters.
    let routes: Bool
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ExcludingContainer(base: base.container(keyedBy: type), parameters: parameters, routes: routes))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { base.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { base.singleValueContainer() }
}

/// What a ``BodyWriter`` is given when it is not a `@Body` property's value.
protocol EndpointProperties {}

/// Forwards body properties to `base`, and the others (path values, `@QueryItem`, `@HeaderField`) to the
/// parameter encoder; drops `Restful` values.
private struct ExcludingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let parameters: ParameterEncoder
    let routes: Bool
    var codingPath: [any CodingKey] { base.codingPath }

    package mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        switch try parameters.placement(of: value, forKey: key) {
        case .none:
            return
        case .path, .query, .header:
            if routes { try parameters.encodeProperty(value, forKey: key) }
        case .wholeBody:
            guard routes, let whole = value as? any WholeBody, try parameters.claimsForBody(key, asWholeBody: true) else { return }
            try parameters.setWholeBody(whole.bodyValue, for: key)
        case .styledArray, .default:
            if try parameters.claimsForBody(key) { try base.encode(value, forKey: key) }
        }
    }

    /// Whether a primitive goes to the body; if not, hands its text to the parameter encoder.
    private func keeps(_ key: Key, _ text: @autoclosure () -> String, of value: some Encodable) throws -> Bool {
        if try parameters.claimsForBody(key) { return true }
        if routes { try parameters.writeProperty(text(), of: value, forKey: key) }
        return false
    }

    mutating func encodeNil(forKey key: Key) throws { if try parameters.claimsForBody(key) { try base.encodeNil(forKey: key) } }
    package mutating func encode(_ value: Bool, forKey key: Key) throws { if try keeps(key, value ? "true" : "false", of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: String, forKey key: Key) throws { if try keeps(key, value, of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: Double, forKey key: Key) throws {
        if try parameters.claimsForBody(key) { try base.encode(value, forKey: key) } else if routes { try parameters.encodeProperty(value, forKey: key) }
    }
    package mutating func encode(_ value: Float, forKey key: Key) throws {
        if try parameters.claimsForBody(key) { try base.encode(value, forKey: key) } else if routes { try parameters.encodeProperty(value, forKey: key) }
    }
    package mutating func encode(_ value: Int, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: Int8, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: Int16, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: Int32, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: Int64, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: UInt, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: UInt8, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: UInt16, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: UInt32, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }
    package mutating func encode(_ value: UInt64, forKey key: Key) throws { if try keeps(key, String(value), of: value) { try base.encode(value, forKey: key) } }

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
