import Foundation

/// Reads an endpoint's properties as text and sorts them by destination: path placeholders, the
/// query string, headers (`@HeaderField`), and the fields of a form or multipart body.
///
/// It works through `Encodable`, so it sees exactly what the endpoint's conformance encodes, and it
/// follows the server encoder's key, date and data strategies, so that a property has the same name
/// and format in a query as in a JSON body.
///
/// Value rules: `nil` is left out; arrays repeat their key (`tag=a&tag=b`), or follow the server's
/// or the property's ``ArrayEncoding``; nested values are named `key[sub]`; `Bool` is
/// `true`/`false`. Names and values are collected unencoded.
///
/// For JSON bodies it runs inside the JSON pass: ``BodyEncoding`` hands it the properties that do
/// not belong in the body, so an endpoint is encoded once.
final class ParameterEncoder {
    /// Where top-level properties go when nothing else claims them (a path placeholder, `@QueryItem`,
    /// `@HeaderField`).
    enum Destination {
        case query
        case form
        case multipart
        case raw
        /// Left to the body's ``BodyWriter``.
        case nowhere
    }

    /// A field of a form or multipart body.
    enum Field: Sendable {
        case text(String)
        case file(MultipartFile)
    }

    /// Query parameters in the order they were encoded, not yet percent-encoded.
    private(set) var queryItems: [(name: String, value: String)] = []
    /// Body fields in the order they were encoded, for form and multipart bodies.
    private(set) var fields: [(name: String, value: Field)] = []
    /// Headers from `@HeaderField` properties; a list is one comma-separated value.
    private(set) var headers: [(name: String, value: String)] = []
    /// The raw body, for ``Destination/raw``.
    private(set) var rawBody: Data?
    /// Placeholder name → the property's value, not yet percent-encoded.
    private(set) var pathValues: [String: String] = [:]
    /// Comma-separated lists: the index of an item in ``queryItems`` (or of a field in ``fields``)
    /// → its elements. The item's value holds them joined by commas, unencoded; a query or form
    /// encodes each element and keeps the commas.
    private(set) var queryLists: [Int: [String]] = [:]
    private(set) var fieldLists: [Int: [String]] = [:]
    /// The positions in ``queryItems`` of `@QueryItem` properties, which a call at a URL the
    /// server handed out still adds to its query.
    private(set) var placedQueryIndices: [Int] = []
    /// The value of a ``Body`` property: the whole body.
    private(set) var wholeBody: (any Encodable)?
    /// The first property the body holds besides a ``Body`` one, for the error that follows.
    private(set) var firstBodyKey: String?
    /// Whether the endpoint's parameters were placed: set by the first pass of ``BodyEncoding``.
    var placed = false
    /// The first key a container could not name, where the `Encoder` protocol cannot throw (a
    /// nested container's key); ``encode(_:)`` throws it once the value is read.
    fileprivate var missingCaseNames: MissingCaseNames?

    // Read when first needed: each getter takes the encoder's lock, and a JSON body with no
    // parameters needs none of them.
    private lazy var keyStrategy = jsonEncoder.keyEncodingStrategy
    private lazy var dateStrategy = jsonEncoder.dateEncodingStrategy
    private lazy var dataStrategy = jsonEncoder.dataEncodingStrategy
    private let jsonEncoder: JSONEncoder
    private let pathNames: Set<String>
    private let destination: Destination
    /// How lists are written unless a property says otherwise.
    private let arrays: ArrayEncoding

    /// - Parameters:
    ///   - encoder: The server's JSON encoder, whose strategies to follow.
    ///   - pathNames: Top-level properties bound to path placeholders, by Swift name.
    ///   - destination: Where the other top-level properties go.
    ///   - arrays: How lists are written, unless a property is an ``EncodedArray``.
    init(strategiesOf encoder: JSONEncoder, pathNames: Set<String>, destination: Destination, arrays: ArrayEncoding = .repeatedKeys) {
        jsonEncoder = encoder
        self.pathNames = pathNames
        self.destination = destination
        self.arrays = arrays
    }

    private init(sameStrategiesAs other: ParameterEncoder) {
        jsonEncoder = other.jsonEncoder
        pathNames = []
        destination = .query
        arrays = .repeatedKeys
    }

    /// The fields, or the raw body, of what a form, multipart or raw ``BodyWriter`` is given.
    static func fields(of properties: some Encodable, for server: APIServer, destination: Destination) throws -> ParameterEncoder {
        guard properties is any EndpointProperties else {
            throw refusal(properties, at: [], "A @Body property is the whole JSON or raw body, but this endpoint sends \(destination.noun); give it a JSON body (Restful(…, body: .json)) or remove @Body.")
        }
        let encoder = ParameterEncoder(strategiesOf: server.encoder, pathNames: [], destination: destination, arrays: server.arrayEncoding)
        try encoder.encode(properties)
        return encoder
    }

    /// Reads the properties of `value`, which must encode as a keyed container.
    package func encode(_ value: some Encodable) throws {
        try value.encode(to: ParameterEncoding(parent: self, name: nil, sink: .query, codingPath: [], arrays: arrays))
        if let missingCaseNames { throw missingCaseNames }
    }

    /// Where a top-level property goes (the one rule, ``PropertyPlacement``).
    func placement<Value>(of value: Value, forKey key: some CodingKey) throws(MissingCaseNames) -> PropertyPlacement {
        try PropertyPlacement.of(value, forKey: key, pathNames: pathNames)
    }

    /// Whether a top-level property is left to the JSON body; noted, when it is, so that a
    /// ``Body`` property can refuse company.
    func claimsForBody(_ key: some CodingKey, asWholeBody: Bool = false) throws(MissingCaseNames) -> Bool {
        if !pathNames.isEmpty, try placeholder(for: key) != nil { return false }
        if firstBodyKey == nil && !asWholeBody { firstBodyKey = key.stringValue }
        return true
    }

    /// Keeps the value of a ``Body`` property as the whole body.
    func setWholeBody(_ value: any Encodable, for key: some CodingKey) throws {
        guard wholeBody == nil else {
            throw refusal(value, at: [key], "An endpoint has one @Body property, but \"\(key.stringValue)\" is a second one.")
        }
        wholeBody = value
    }

    /// The path placeholder a top-level property binds (see ``PropertyPlacement``).
    private func placeholder(for key: some CodingKey) throws(MissingCaseNames) -> String? {
        try PropertyPlacement.placeholder(for: key, in: pathNames)
    }

    // MARK: - Top-level properties

    /// Sends one top-level property where it belongs.
    func encodeProperty<Value: Encodable>(_ value: Value, forKey key: some CodingKey) throws {
        switch try PropertyPlacement.of(value, forKey: key, pathNames: pathNames) {
        case .none:
            return  // the endpoint's own description never goes on the wire
        case .path(let placeholder):
            try bindPath(value, for: key, placeholder: placeholder)
        case .query:
            guard let placed = value as? any PlacedParameter else { return }
            let start = queryItems.count
            try encoding(for: key, sink: .query).encodeValue(placed.parameterValue)
            placedQueryIndices += start..<queryItems.count
        case .header(let name):
            guard let placed = value as? any PlacedParameter else { return }
            let encoding = ParameterEncoding(parent: self, name: "", sink: .header(name), codingPath: [key], arrays: arrays)
            try encoding.encodeValue(placed.parameterValue)
        case .wholeBody:
            guard let whole = value as? any WholeBody else { return }
            if destination == .nowhere, try claimsForBody(key, asWholeBody: true) { return try setWholeBody(whole.bodyValue, for: key) }
            guard destination == .raw else {
                throw refusal(value, at: [key], "A @Body property is the whole JSON or raw body, but this endpoint sends \(destination.noun); give it a JSON body (Restful(…, body: .json)) or remove @Body.")
            }
            try setRawBody(whole.bodyValue, for: key)
        case .styledArray(let style):
            guard let styled = value as? any StyledArray else { return }
            let sink: ParameterEncoding.Sink
            switch destination {
            case .query: sink = .query
            case .form, .multipart: sink = .body
            case .raw: return try setRawBody(styled.listValue, for: key)
            case .nowhere: return _ = try claimsForBody(key)
            }
            let encoding = ParameterEncoding(parent: self, name: try name(for: key, at: []), sink: sink, codingPath: [key], arrays: style)
            try encoding.encodeValue(styled.listValue)
        case .default:
            switch destination {
            case .query: try encoding(for: key, sink: .query).encodeValue(value)
            case .form, .multipart: try encoding(for: key, sink: .body).encodeValue(value)
            case .raw: try setRawBody(value, for: key)
            case .nowhere: _ = try claimsForBody(key)
            }
        }
    }

    /// The fast path for top-level strings, integers and booleans: their text, without a nested encoder.
    func writeProperty(_ text: String, of value: some Encodable, forKey key: some CodingKey) throws {
        if let placeholder = try placeholder(for: key) {
            pathValues[placeholder] = text
            return
        }
        switch destination {
        case .query: try encoding(for: key, sink: .query).write(text)
        case .form, .multipart: try encoding(for: key, sink: .body).write(text)
        case .raw: try setRawBody(value, for: key)
        case .nowhere: _ = try claimsForBody(key)
        }
    }

    private func encoding(for key: some CodingKey, sink: ParameterEncoding.Sink) throws(MissingCaseNames) -> ParameterEncoding {
        ParameterEncoding(parent: self, name: try name(for: key, at: []), sink: sink, codingPath: [key], arrays: arrays)
    }

    private func setRawBody(_ value: some Encodable, for key: some CodingKey) throws {
        guard rawBody == nil else {
            throw refusal(value, at: [key], "a raw body is one property, but \"\(key.stringValue)\" is another; mark the others @QueryItem or @HeaderField, or name them in the path")
        }
        guard let bytes = Self.rawBytes(of: value) else { throw refusal(value, at: [key], "a raw body must be Data or String, not \(type(of: value))") }
        rawBody = bytes
    }

    /// The bytes of a raw body's one property: a `Data` or a `String`, optional or not.
    static func rawBytes(of value: some Encodable) -> Data? {
        switch value {
        case let data as Data: data
        case let text as String: Data(text.utf8)
        case let data as Data?: data ?? Data()
        case let text as String?: Data((text ?? "").utf8)
        default: nil
        }
    }

    // MARK: - Used by the containers

    fileprivate func name(for key: some CodingKey, at codingPath: [any CodingKey]) throws(MissingCaseNames) -> String {
        try keyStrategy.wireName(for: key, at: codingPath)
    }

    fileprivate func append(_ value: String, as name: String?, sink: ParameterEncoding.Sink, at codingPath: [any CodingKey]) throws {
        guard let name else {
            throw refusal(value, at: codingPath, "Endpoint parameters must encode as a keyed container (a struct's properties), not a single value.")
        }
        switch sink {
        case .query:
            queryItems.append((name, value))
        case .body:
            fields.append((name, .text(value)))
        case .header(let header):
            guard name.isEmpty else {
                throw refusal(value, at: codingPath, "The header \(header) takes a single value or a list, not an object.")
            }
            if let index = headers.firstIndex(where: { $0.name == header }) {
                headers[index].value += ", " + value
            } else {
                headers.append((header, value))
            }
        }
    }

    /// Appends one element of a comma-separated list: a new item for the first (`index` is
    /// `nil`), else added to the item at `index`.
    ///
    /// - Returns: The item's index, for the next element.
    fileprivate func appendListElement(_ value: String, as name: String, sink: ParameterEncoding.Sink, to index: Int?) -> Int {
        switch sink {
        case .query:
            if let index {
                queryItems[index].value += "," + value
                queryLists[index, default: []].append(value)
                return index
            }
            queryItems.append((name, value))
            queryLists[queryItems.count - 1] = [value]
            return queryItems.count - 1
        case .body, .header:
            if let index {
                fields[index].value = .text(fields[index].value.text + "," + value)
                fieldLists[index, default: []].append(value)
                return index
            }
            fields.append((name, .text(value)))
            fieldLists[fields.count - 1] = [value]
            return fields.count - 1
        }
    }

    /// The text values of `value`, encoded on their own: one for a plain value, one per element
    /// for a list of plain values; an error for an object.
    fileprivate func plainValues(of value: some Encodable, at codingPath: [any CodingKey]) throws -> [String] {
        let capture = ParameterEncoder(sameStrategiesAs: self)
        try ParameterEncoding(parent: capture, name: "", sink: .query, codingPath: codingPath, arrays: .repeatedKeys).encodeValue(value)
        if let missing = capture.missingCaseNames { throw missing }
        guard capture.queryItems.allSatisfy({ $0.name.isEmpty }) else {
            throw refusal(value, at: codingPath, "A comma-separated list holds plain values such as strings and numbers, not objects.")
        }
        return capture.queryItems.map(\.value)
    }

    fileprivate func append(_ file: MultipartFile, as name: String?, sink: ParameterEncoding.Sink, at codingPath: [any CodingKey]) throws {
        guard let name, case .body = sink, destination == .multipart else {
            throw refusal(file.filename, at: codingPath, "A MultipartFile can only be sent in a multipart body: declare the endpoint with Restful(…, body: .multipart).")
        }
        fields.append((name, .file(file)))
    }

    fileprivate func bindPath(_ value: some Encodable, for key: some CodingKey, placeholder: String) throws {
        let capture = ParameterEncoder(sameStrategiesAs: self)
        try ParameterEncoding(parent: capture, name: "", sink: .query, codingPath: [key], arrays: .repeatedKeys).encodeValue(value)
        if let missing = capture.missingCaseNames { throw missing }
        switch capture.queryItems.count {
        case 0:
            return  // nothing encoded (an empty list, say): reported as a missing placeholder value
        case 1 where capture.queryItems[0].name.isEmpty:
            pathValues[placeholder] = capture.queryItems[0].value
        default:
            throw refusal(value, at: [key], "A path placeholder takes a single value such as a string or a number, not a list or an object.")
        }
    }
    fileprivate func encodeDate(_ date: Date, with encoder: ParameterEncoding) throws {
        // `if case` rather than `switch`: the strategy's cases differ between Apple's Foundation
        // and swift-foundation (`.formatted` lives outside FoundationEssentials).
        if case .iso8601 = dateStrategy {
            try encoder.write(RFC3339.string(from: date))
        } else if case .deferredToDate = dateStrategy {
            try date.encode(to: encoder)
        } else if case .secondsSince1970 = dateStrategy {
            try encoder.write(date.timeIntervalSince1970)
        } else if case .millisecondsSince1970 = dateStrategy {
            try encoder.write(date.timeIntervalSince1970 * 1000)
        } else if case .custom(let encode) = dateStrategy {
            try encode(date, encoder)
        } else {
            // `.formatted(_:)` and strategies added later: let the JSON encoder write the date.
            try encoder.write(jsonText(of: date))
        }
    }

    /// A value as the JSON encoder writes it, without JSON quoting: `"2024-05-01"` → `2024-05-01`.
    private func jsonText(of value: some Encodable) throws -> String {
        let json = try jsonEncoder.encode([value])
        if let missing = MissingCaseNames.found(in: json) { throw missing }
        if let strings = try? JSONDecoder().decode([String].self, from: json), let text = strings.first {
            return text
        }
        return String(decoding: json.dropFirst().dropLast(), as: UTF8.self)
    }

    fileprivate func encodeData(_ data: Data, with encoder: ParameterEncoding) throws {
        switch dataStrategy {
        case .deferredToData:
            try data.encode(to: encoder)
        case .base64:
            try encoder.write(data.base64EncodedString())
        case .custom(let encode):
            try encode(data, encoder)
        @unknown default:
            try encoder.write(data.base64EncodedString())
        }
    }
}

// MARK: - Encoder

/// Encodes one value whose text goes under `name` (nil at the top level, where only keyed
/// containers are allowed) into `sink`.
private struct ParameterEncoding: Encoder {
    /// Where written text goes.
    enum Sink {
        case query
        case body
        case header(String)
    }

    let parent: ParameterEncoder
    package let name: String?
    let sink: Sink
    let codingPath: [any CodingKey]
    /// How a list below this value is written.
    let arrays: ArrayEncoding
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedParameterContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedParameterContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleParameterContainer(encoder: self)
    }

    func child(for key: some CodingKey) -> ParameterEncoding {
        let keyName: String
        do {
            keyName = try parent.name(for: key, at: codingPath)
        } catch {
            parent.missingCaseNames = parent.missingCaseNames ?? error
            keyName = key.stringValue
        }
        let childName = name.map { "\($0)[\(keyName)]" } ?? keyName
        return ParameterEncoding(parent: parent, name: childName, sink: sink, codingPath: codingPath + [key], arrays: arrays)
    }

    /// The encoder for an array element: the same name, so the key repeats; with `[]` for
    /// ``ArrayEncoding/brackets``. Headers and path values keep their lists as they are.
    func element(at index: Int) -> ParameterEncoding {
        var elementName = name
        if arrays.kind == .brackets, isNamedField, let name { elementName = name + "[]" }
        return ParameterEncoding(parent: parent, name: elementName, sink: sink, codingPath: codingPath + [IndexKey(intValue: index)], arrays: arrays)
    }

    /// Whether this value is a named query parameter or body field, whose lists follow ``arrays``.
    var isNamedField: Bool {
        guard let name, !name.isEmpty else { return false }
        if case .header = sink { return false }
        return true
    }

    /// Whether a list here is one comma-separated value.
    var joinsLists: Bool { arrays.kind == .commaSeparated && isNamedField }

    func write(_ text: String) throws {
        try parent.append(text, as: name, sink: sink, at: codingPath)
    }

    func write(_ number: some BinaryFloatingPoint & LosslessStringConvertible) throws {
        guard number.isFinite else {
            throw refusal(number, at: codingPath, "\(number) cannot be sent as a parameter.")
        }
        try write(number.description)
    }

    func encodeValue<Value: Encodable>(_ value: Value) throws {
        switch value {
        case let date as Date: try parent.encodeDate(date, with: self)
        case let data as Data: try parent.encodeData(data, with: self)
        case let url as URL: try write(url.absoluteString)
        case let uuid as UUID: try write(uuid.uuidString.lowercased())  // RFC 9562 §4: lower case on output
        case let decimal as Decimal: try write(decimal.description)
        case let file as MultipartFile: try parent.append(file, as: name, sink: sink, at: codingPath)
        case let dictionary as any StringKeyedDictionary: try dictionary.encodeEntries(to: self)
        default: try value.encode(to: self)
        }
    }

    /// The encoder for a dictionary entry: its key is data, so it is used as it is (as
    /// `JSONEncoder` does), without the key strategy.
    func child(forDictionaryKey key: String) -> ParameterEncoding {
        ParameterEncoding(
            parent: parent, name: name.map { "\($0)[\(key)]" } ?? key, sink: sink,
            codingPath: codingPath + [SnakeCase.PlainKey(key)], arrays: arrays)
    }
}

/// `[String: some Encodable]`, whose keys are data rather than property names.
private protocol StringKeyedDictionary {
    func encodeEntries(to encoder: ParameterEncoding) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    /// Entries in key order, so the same dictionary always gives the same query.
    fileprivate func encodeEntries(to encoder: ParameterEncoding) throws {
        for (key, value) in sorted(by: { $0.key < $1.key }) {
            try encoder.child(forDictionaryKey: key).encodeValue(value)
        }
    }
}

// MARK: - Containers

private struct KeyedParameterContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ParameterEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws {}

    package mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try encodeProperty(value, forKey: key)
    }

    /// The fast path for strings, integers and booleans: their text, without a nested encoder.
    private func writeProperty(_ text: String, of value: some Encodable, forKey key: Key) throws {
        guard encoder.name == nil else {
            return try encoder.child(for: key).write(text)
        }
        try encoder.parent.writeProperty(text, of: value, forKey: key)
    }

    private func encodeProperty<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        guard encoder.name == nil else {
            return try encoder.child(for: key).encodeValue(value)
        }
        try encoder.parent.encodeProperty(value, forKey: key)
    }

    package mutating func encode(_ value: Bool, forKey key: Key) throws { try writeProperty(value ? "true" : "false", of: value, forKey: key) }
    package mutating func encode(_ value: String, forKey key: Key) throws { try writeProperty(value, of: value, forKey: key) }
    package mutating func encode(_ value: Double, forKey key: Key) throws { try encodeProperty(value, forKey: key) }
    package mutating func encode(_ value: Float, forKey key: Key) throws { try encodeProperty(value, forKey: key) }
    package mutating func encode(_ value: Int, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: Int8, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: Int16, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: Int32, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: Int64, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: UInt, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: UInt8, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: UInt16, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: UInt32, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }
    package mutating func encode(_ value: UInt64, forKey key: Key) throws { try writeProperty(String(value), of: value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder.child(for: SnakeCase.PlainKey("super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.child(for: key) }
}

/// Array elements: each one is written under the array's own name, so the key repeats (with `[]`
/// for ``ArrayEncoding/brackets``), or joined into one comma-separated value.
private struct UnkeyedParameterContainer: UnkeyedEncodingContainer {
    let encoder: ParameterEncoding
    private(set) var count = 0
    /// The comma-separated item the elements go into, once the first has been written.
    private var listIndex: Int?
    var codingPath: [any CodingKey] { encoder.codingPath }

    init(encoder: ParameterEncoding) {
        self.encoder = encoder
    }

    private var element: ParameterEncoding { encoder.element(at: count) }

    mutating func encodeNil() throws { count += 1 }

    package mutating func encode<Value: Encodable>(_ value: Value) throws {
        if encoder.joinsLists, let name = encoder.name {
            for text in try encoder.parent.plainValues(of: value, at: element.codingPath) {
                listIndex = encoder.parent.appendListElement(text, as: name, sink: encoder.sink, to: listIndex)
            }
        } else {
            try element.encodeValue(value)
        }
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        defer { count += 1 }
        return element.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { count += 1 }
        return element.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        defer { count += 1 }
        return element
    }
}

private struct SingleParameterContainer: SingleValueEncodingContainer {
    let encoder: ParameterEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {}
    package mutating func encode(_ value: Bool) throws { try encoder.write(value ? "true" : "false") }
    package mutating func encode(_ value: String) throws { try encoder.write(value) }
    package mutating func encode(_ value: Double) throws { try encoder.write(value) }
    package mutating func encode(_ value: Float) throws { try encoder.write(value) }
    package mutating func encode(_ value: Int) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: Int8) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: Int16) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: Int32) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: Int64) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: UInt) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: UInt8) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: UInt16) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: UInt32) throws { try encoder.write(String(value)) }
    package mutating func encode(_ value: UInt64) throws { try encoder.write(String(value)) }
    package mutating func encode<Value: Encodable>(_ value: Value) throws { try encoder.encodeValue(value) }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    package var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

extension ParameterEncoder.Field {
    /// The text of a text field; a form never holds files (the encoder refuses them).
    var text: String {
        if case .text(let text) = self { text } else { "" }
    }
}

extension ParameterEncoder.Destination {
    /// What an endpoint with this destination sends, for error messages.
    var noun: String {
        switch self {
        case .query: "no body (its properties form the query string)"
        case .form: "a form body"
        case .multipart: "a multipart body"
        case .raw: "a raw body"
        case .nowhere: "a JSON body"
        }
    }
}

/// A value that cannot be sent where the endpoint puts it, with the reason, at `codingPath`.
private func refusal(_ value: Any, at codingPath: [any CodingKey], _ description: String) -> EncodingError {
    EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: description))
}
