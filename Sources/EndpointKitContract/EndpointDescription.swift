import EndpointKit
import Foundation

/// An endpoint as OpenAPI describes it: where each property goes on the wire (path, query, header
/// or body, with the same names, styles and formats EndpointKit sends) and the schema of each.
///
/// It decodes the endpoint type with ``SchemaProbe`` (which is why a described endpoint is
/// `Decodable`), then encodes the placeholder it got through a recorder that sorts the properties
/// the way ``RequestBuilder`` does.
package struct EndpointDescription {
    struct Parameter {
        let name: String
        /// `path`, `query` or `header`.
        let location: String
        let schema: JSONValue
        let isRequired: Bool
        /// For lists and objects in a query: OpenAPI's `style` and `explode`.
        var style: (name: String, explode: Bool)?
        var description: String?
    }

    struct RequestBody {
        let mediaType: String
        let schema: JSONValue
        /// Per-property `encoding` of a form or multipart body.
        let encoding: [JSONValue.Member]
    }

    package let restful: Restful
    package let path: String
    var parameters: [Parameter] = []
    var body: RequestBody?
    /// Every property but the headers, as one object (names on the wire): what a language model
    /// fills in to call the endpoint as a tool.
    package private(set) var arguments = JSONValue.object(["type": .string("object")])
    /// The names of ``arguments``' properties.
    package private(set) var argumentNames: [String] = []

    /// How one top-level property is sent.
    enum Placement {
        case path(String)
        case query
        case header(String)
        case wholeBody
        case arrays(ArrayEncoding)
        case `default`
    }

    /// `decoded` says whether the endpoint is decoded from the described data (a tool call, whose
    /// arguments must then read back) or only encoded (a request in an OpenAPI document).
    package init<E: Endpoint & Decodable>(_ type: E.Type, builder: SchemaBuilder, server: APIServer, decoded: Bool) throws {
        func failure(_ reason: String) -> EndpointError {
            EndpointError(kind: .schemaUnavailable, route: String(reflecting: type), reason: reason)
        }
        // Decoded with the wrapper log, so @HeaderField names and @EncodedArray styles are as declared.
        let checked = builder.checksReadBack
        builder.checksReadBack = decoded
        defer { builder.checksReadBack = checked }
        let (probed, _) = try WrapperLog.$current.withValue(WrapperLog(mode: .probing)) { try builder.probe(type, at: []) }
        builder.removeDefinition(of: type)  // the endpoint is described by its parameters, not as a schema
        // An endpoint without stored properties decodes nothing at all: it has no parameters.
        guard let endpoint = probed else {
            throw failure("it holds itself, so no value of it can be made to describe it")
        }
        let record = builder.records[ObjectIdentifier(type)] ?? ProbeRecord(codingPath: [])
        restful = endpoint.endpoint
        guard let template = PathTemplate.parsed(restful.path), !template.hasQuery else {
            throw failure("its path \"\(restful.path)\" is not a path template OpenAPI can hold (unbalanced braces, or a fixed query)")
        }
        let prefix = ServerPlan.expandedPrefix(restful.prefix ?? server.pathPrefix, version: restful.version)
        path = prefix + "/" + template.openAPIPath

        let recorder = PlacementRecorder(templateNames: template.names)
        do {
            try endpoint.encode(to: recorder)
            if let missing = recorder.missingCaseNames { throw missing }
        } catch let missing as MissingCaseNames {
            throw SchemaBuilder.unnamedKeys(in: type, missing)
        } catch {
            throw failure("its encode(to:) threw \(error)")
        }

        // As RequestBuilder refuses a call whose placeholder no property fills, so does the document.
        let bound = Set(recorder.placements.values.compactMap { placement -> String? in
            if case .path(let name) = placement { name } else { nil }
        })
        if let unbound = template.names.sorted().first(where: { !bound.contains($0) }) {
            throw failure(RequestBuilder.unboundPlaceholder(unbound, in: E.self))
        }

        let format = restful.sentBodyFormat
        let notes = (E.self as? any Documented.Type)?.documentation.properties ?? [:]
        var bodyProperties: [(property: ProbeRecord.Property, placement: Placement)] = []
        var wholeBody: ProbeRecord.Property?
        var argumentProperties: [ProbeRecord.Property] = []
        for property in record.properties {
            let placement = recorder.placements[property.swiftName] ?? .default
            if case .header = placement {} else { argumentProperties.append(property) }
            let schema = try property.schema.value(builder: builder)
            let bare = SchemaBuilder.nonNull(schema)
            let required = property.isRequired && !property.isNullable && bare == schema
            let note = notes[property.swiftName]
            switch placement {
            case .path(let name):
                var parameter = Parameter(name: name, location: "path", schema: bare, isRequired: true)
                if template.multiSegmentNames.contains(name) {
                    parameter.description = "Several path segments separated by \"/\", each percent-encoded."
                }
                parameters.append(parameter.noted(note))
            case .query:
                parameters += try Self.query(property.wireName, schema: bare, required: required, arrays: server.arrayEncoding, builder: builder).map { $0.noted(note) }
            case .header(let name):
                parameters.append(Parameter(name: name, location: "header", schema: bare, isRequired: required).noted(note))
            case .wholeBody:
                wholeBody = property
            case .arrays(let arrays) where format == nil:
                parameters += try Self.query(property.wireName, schema: bare, required: required, arrays: arrays, builder: builder).map { $0.noted(note) }
            case .default where format == nil:
                parameters += try Self.query(property.wireName, schema: bare, required: required, arrays: server.arrayEncoding, builder: builder).map { $0.noted(note) }
            case .arrays, .default:
                bodyProperties.append((property, placement))
            }
        }
        arguments = try Self.object(argumentProperties, builder: builder, notes: notes)
        argumentNames = argumentProperties.map(\.wireName)
        for (name, value) in E.headers.sorted(by: { $0.key < $1.key })
        where !["accept", "content-type", "authorization"].contains(name.lowercased()) {
            parameters.append(Parameter(name: name, location: "header", schema: .object(["type": .string("string"), "enum": .array([.string(value)])]), isRequired: true))
        }

        guard let writer = format?.writer else { return }
        // The body is what the writer is given, as it describes it. Only JSON carries null: in a
        // form, a multipart or a raw body, nil is left out. OpenAPI's `encoding` (a list's style)
        // is defined for form and multipart bodies, and only a form's lists have a style of their own.
        let media = writer.mediaType.lowercased()
        let nullable = media == "application/json" || media.hasSuffix("+json")
        let given = try wholeBody.map { try $0.schema.value(builder: builder) }
            ?? Self.object(bodyProperties.map(\.property), builder: builder, notes: notes, nullable: nullable)
        var encoding: [JSONValue.Member] = []
        if media == "application/x-www-form-urlencoded" {
            for (property, placement) in bodyProperties {
                let value = SchemaBuilder.nonNull(try property.schema.value(builder: builder))
                guard value["type"] == .string("array") else { continue }
                var arrays = server.arrayEncoding
                if case .arrays(let own) = placement { arrays = own }
                encoding.append(.init(key: property.wireName, value: .object(["style": .string("form"), "explode": .bool(arrays.kind != .commaSeparated)])))
            }
        }
        body = RequestBody(mediaType: writer.mediaType, schema: writer.schema(ofBody: given), encoding: encoding)
    }

    /// The query parameters of one property, as EndpointKit sends it:
    /// - a list in the style of `arrays`, never required (an empty list sends nothing);
    /// - an object leaf by leaf (`filter[language]`, `filter[inner][min_stars]`, `filter[labels]`):
    ///   `deepObject` does not define objects within objects or lists, and validators read even a
    ///   flat one inconsistently;
    /// - a dictionary as `key[sub]` (OpenAPI's `deepObject`), since its keys are data;
    /// - anything else as one parameter.
    private static func query(_ name: String, schema: JSONValue, required: Bool, arrays: ArrayEncoding, builder: SchemaBuilder, depth: Int = 0) throws -> [Parameter] {
        let resolved = SchemaBuilder.nonNull(builder.resolved(schema))
        if resolved["type"] == .string("array") {
            let (suffix, explode) = switch arrays.kind {
            case .repeatedKeys: ("", true)
            case .commaSeparated: ("", false)
            case .brackets: ("[]", true)
            }
            return [Parameter(name: name + suffix, location: "query", schema: schema, isRequired: false, style: ("form", explode))]
        }
        guard resolved["type"] == .string("object") else {
            return [Parameter(name: name, location: "query", schema: schema, isRequired: required)]
        }
        let properties = resolved["properties"]?.objectMembers ?? []
        guard !properties.isEmpty else {  // a dictionary: its keys are data, deepObject holds them
            // An empty dictionary sends nothing at all.
            return [Parameter(name: name, location: "query", schema: schema, isRequired: false, style: ("deepObject", true))]
        }
        guard depth < 8 else {
            throw EndpointError(
                kind: .schemaUnavailable, route: name,
                reason: "its query parameter \(name) nests objects more than 8 deep (a recursive type?), which a query cannot describe; send it in the body")
        }
        let requiredNames = Set((resolved["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var parameters: [Parameter] = []
        for member in properties {
            parameters += try query(
                "\(name)[\(member.key)]", schema: SchemaBuilder.nonNull(member.value),
                required: required && requiredNames.contains(member.key), arrays: arrays, builder: builder, depth: depth + 1)
        }
        return parameters
    }

    /// The object schema of the body's properties. `nullable` is false for a form or multipart
    /// body, which has no null: an absent value is a field not sent.
    private static func object(
        _ properties: [ProbeRecord.Property], builder: SchemaBuilder, notes: [String: Documentation.Property], nullable: Bool = true
    ) throws -> JSONValue {
        var members: [JSONValue.Member] = []
        var required: [JSONValue] = []
        for property in properties {
            var value = try property.schema.value(builder: builder)
            let bare = SchemaBuilder.nonNull(value)
            var isRequired = property.isRequired && !property.isNullable && bare == value
            if nullable {
                if property.isNullable || !property.isRequired { value = SchemaBuilder.nullable(value) }
            } else {
                value = bare  // a form has no null: nil is left out
                // nor an empty list: no field at all, so a list is never required there
                if builder.resolved(value)["type"] == .string("array") { isRequired = false }
            }
            if let note = notes[property.swiftName] { value = note.applied(to: value) }
            members.append(.init(key: property.wireName, value: value))
            if isRequired { required.append(.string(property.wireName)) }
        }
        var schema = JSONValue.object(["type": .string("object")])
        if !members.isEmpty { schema["properties"] = .object(members) }
        if !required.isEmpty { schema["required"] = .array(required) }
        return schema
    }
}

extension EndpointDescription.Parameter {
    func noted(_ note: Documentation.Property?) -> Self {
        guard let note else { return self }
        var copy = self
        if let description = note.description { copy.description = description }
        return copy
    }
}

/// An `Encoder` that records, for each top-level property of an endpoint, where it is sent.
private final class PlacementRecorder: Encoder {
    let templateNames: Set<String>
    /// Placements by Swift property name.
    var placements: [String: EndpointDescription.Placement] = [:]
    /// The first key of a nested container that had no case name.
    var missingCaseNames: MissingCaseNames?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    package init(templateNames: Set<String>) {
        self.templateNames = templateNames
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Ignored(recorder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Ignored(recorder: self) }

    /// A property holding a nested container, which the `Encoder` protocol cannot fail: a miss
    /// waits in ``missingCaseNames``.
    func recordNested(forKey key: some CodingKey) {
        do {
            try record(nil as Int?, forKey: key)
        } catch {
            missingCaseNames = missingCaseNames ?? error
        }
    }

    func record(_ value: Any?, forKey key: some CodingKey) throws(MissingCaseNames) {
        let swiftName = try CodingKeyName.differingSwiftName(of: key) ?? key.stringValue
        // The core's own rule, the one the request builder follows.
        switch try PropertyPlacement.of(value, forKey: key, pathNames: templateNames) {
        case .none: return
        case .path(let name): placements[swiftName] = .path(name)
        case .query: placements[swiftName] = .query
        case .header(let name): placements[swiftName] = .header(name)
        case .wholeBody: placements[swiftName] = .wholeBody
        case .styledArray(let style): placements[swiftName] = .arrays(style)
        case .default: placements[swiftName] = .default
        }
    }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let recorder: PlacementRecorder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { try recorder.record(nil, forKey: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try recorder.record(value, forKey: key) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            recorder.recordNested(forKey: key)
            return KeyedEncodingContainer(Nested<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            recorder.recordNested(forKey: key)
            return Ignored(recorder: recorder)
        }
        mutating func superEncoder() -> any Encoder { recorder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { recorder }
    }

    /// Below the top level nothing is placed: nested values go wherever their property goes.
    private struct Nested<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Nested<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Ignored(recorder: nil) }
        mutating func superEncoder() -> any Encoder { Discard() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Discard() }
    }

    private struct Ignored: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let recorder: PlacementRecorder?
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Nested<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { Discard() }
    }

    private struct Discard: Encoder {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(Nested<Key>()) }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { Ignored(recorder: nil) }
        func singleValueContainer() -> any SingleValueEncodingContainer { Ignored(recorder: nil) }
    }
}
