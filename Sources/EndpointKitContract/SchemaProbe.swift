import EndpointKit
import Foundation

/// What one value's decoding asked for: the container it opened and, for a keyed container, its
/// properties in the order they were decoded.
final class ProbeRecord {
    enum Container { case none, keyed, unkeyed, single }

    /// One decoded key: its Swift name (for documentation tables), its name on the wire, its
    /// schema, and whether it must be present.
    struct Property {
        let swiftName: String
        let wireName: String
        /// The coding path of the property, as text: `kind`, `items[0].kind`.
        let keyPath: String
        var schema: Deferred
        var isRequired: Bool
        var isNullable: Bool
    }

    /// A schema known now, or one whose nested container is filled after the call returns.
    enum Deferred {
        case known(JSONValue)
        case nested(ProbeRecord)
    }

    let codingPath: [any CodingKey]
    var container = Container.none
    private(set) var properties: [Property] = []
    var single: Deferred?
    var isNullable = false

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func add(_ key: some CodingKey, wireName: String, schema: Deferred, required: Bool) throws(MissingCaseNames) {
        if let index = properties.firstIndex(where: { $0.wireName == wireName }) {
            properties[index].schema = schema  // asked twice (decodeNil, then decode): the value wins
            properties[index].isRequired = properties[index].isRequired && required
            return
        }
        let swiftName = try CodingKeyName.differingSwiftName(of: key) ?? key.stringValue
        properties.append(Property(
            swiftName: swiftName, wireName: wireName, keyPath: CodingPathText.render(codingPath + [key]),
            schema: schema, isRequired: required, isNullable: false))
    }

    func markNullable(_ wireName: String, key: some CodingKey) throws(MissingCaseNames) {
        if let index = properties.firstIndex(where: { $0.wireName == wireName }) {
            properties[index].isNullable = true
        } else {
            try add(key, wireName: wireName, schema: .known(.object([:])), required: false)
            properties[properties.count - 1].isNullable = true
        }
    }

    /// What was read, as text that two runs of a type's decoding can compare: the container and
    /// each property's wire name, whether it is required, and whether it may be null.
    var shape: String {
        "\(container)" + properties.map { "|\($0.wireName)\($0.isRequired ? "!" : "?")\($0.isNullable ? "~" : "")" }.joined()
    }

    /// The schema of the recorded value.
    func schema(builder: SchemaBuilder) throws -> JSONValue {
        var schema: JSONValue
        switch container {
        case .none:
            schema = .object([:])
        case .keyed:
            var members: [JSONValue.Member] = []
            for property in properties {
                var value = try property.schema.value(builder: builder)
                if property.isNullable || !property.isRequired { value = SchemaBuilder.nullable(value) }
                members.append(.init(key: property.wireName, value: value))
            }
            schema = .object(["type": .string("object")])
            if !members.isEmpty { schema["properties"] = .object(members) }
            let required = properties.filter { $0.isRequired && !$0.isNullable }.map { JSONValue.string($0.wireName) }
            if !required.isEmpty { schema["required"] = .array(required) }
        case .unkeyed:
            schema = .object(["type": .string("array")])
            if let single { schema["items"] = try single.value(builder: builder) }
        case .single:
            schema = try single?.value(builder: builder) ?? .object([:])
        }
        return isNullable ? SchemaBuilder.nullable(schema) : schema
    }
}

extension ProbeRecord.Deferred {
    package func value(builder: SchemaBuilder) throws -> JSONValue {
        switch self {
        case .known(let value): value
        case .nested(let record): try record.schema(builder: builder)
        }
    }
}

/// A decoder that hands out placeholders and records what is asked of it (see ``SchemaBuilder``).
///
/// Keyed containers claim to contain every key, so optional properties are described (and get a
/// value) too; unkeyed containers hold one element; `decodeNil` answers `false` and marks the
/// value nullable.
struct SchemaProbe: Decoder {
    let builder: SchemaBuilder
    let record: ProbeRecord
    var codingPath: [any CodingKey] { record.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try builder.spend(at: codingPath)
        record.container = .keyed
        return KeyedDecodingContainer(KeyedProbe<Key>(probe: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try builder.spend(at: codingPath)
        record.container = .unkeyed
        return UnkeyedProbe(probe: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try builder.spend(at: codingPath)
        record.container = .single
        return SingleProbe(probe: self)
    }

    /// A value of `type` for the decoding that asked; recorded by the caller.
    package func value<T: Decodable>(_ type: T.Type, at codingPath: [any CodingKey]) throws -> (T, JSONValue) {
        try builder.spend(at: codingPath)
        let (value, schema) = try builder.probe(type, at: codingPath)
        guard let value else {
            throw SchemaBuilder.unavailable(type, because: "it holds itself without an optional or a collection between, so no value of it can be made")
        }
        return (value, schema)
    }

    /// The key's name on the wire, refused when the decoder could not read it back (unless it
    /// holds a header: a tool call keeps the declared header, the decoder never reads its key).
    func wireName<T>(for key: some CodingKey, holding type: T.Type = Never.self) throws -> String {
        let name = try builder.keyStrategy.wireName(for: key, at: codingPath)
        if !(type is any DeclaredHeader.Type) {
            try builder.checkReadable(name, key: key, at: codingPath)
        }
        return name
    }
}

private struct KeyedProbe<Key: CodingKey>: KeyedDecodingContainerProtocol {
    package let probe: SchemaProbe
    var codingPath: [any CodingKey] { probe.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        try probe.record.markNullable(probe.wireName(for: key), key: key)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeValue(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let (value, schema) = try probe.builder.probe(type, at: codingPath + [key])
        try probe.record.add(key, wireName: probe.wireName(for: key, holding: type), schema: .known(schema), required: false)
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, forKey: key) }

    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, schema) = try probe.value(type, at: codingPath + [key])
        try probe.record.add(key, wireName: probe.wireName(for: key, holding: type), schema: .known(schema), required: true)
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try nested(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nested(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { probe }
    func superDecoder(forKey key: Key) throws -> any Decoder { try nested(forKey: key) }

    private func nested(forKey key: Key) throws -> SchemaProbe {
        let record = ProbeRecord(codingPath: codingPath + [key])
        try probe.record.add(key, wireName: probe.wireName(for: key), schema: .nested(record), required: true)
        return SchemaProbe(builder: probe.builder, record: record)
    }
}

private struct UnkeyedProbe: UnkeyedDecodingContainer {
    package let probe: SchemaProbe
    var codingPath: [any CodingKey] { probe.codingPath }
    var count: Int? { nil }
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(probe: SchemaProbe) {
        self.probe = probe
    }

    mutating func decodeNil() throws -> Bool {
        false  // elements are never null in the placeholder
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try probe.value(type, at: codingPath)
        if probe.record.single == nil { probe.record.single = .known(schema) }
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nested().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nested().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { nested() }

    private mutating func nested() -> SchemaProbe {
        let record = ProbeRecord(codingPath: codingPath)
        if probe.record.single == nil { probe.record.single = .nested(record) }
        currentIndex += 1
        return SchemaProbe(builder: probe.builder, record: record)
    }
}

private struct SingleProbe: SingleValueDecodingContainer {
    package let probe: SchemaProbe
    var codingPath: [any CodingKey] { probe.codingPath }

    func decodeNil() -> Bool {
        probe.record.isNullable = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(type)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try probe.value(type, at: codingPath)
        probe.record.single = .known(schema)
        return value
    }
}

/// `@HeaderField`, whose key a tool call never reads.
private protocol DeclaredHeader {}
extension HeaderField: DeclaredHeader {}
