import EndpointKit
import Foundation

/// A JSON Schema (Draft 2020-12) of a Swift type, derived from its `Decodable` conformance, or
/// written by hand for a type that describes itself.
///
/// ```swift
/// let schema = try JSONSchema(for: CheerHistory.ReturnPayloadType.self)
/// print(String(decoding: try schema.json(prettyPrinted: true), as: UTF8.self))
/// ```
///
/// Derivation runs the type's `init(from:)` against a decoder that records what it asks for, so no
/// macro and no code generation is involved. Property names follow the encoder's key strategy
/// (snake_case with EndpointKit's default coders), dates its date strategy (`format: date-time`
/// for ISO 8601). Nested types become `$defs` referred to by `$ref`; titles are the type names.
/// What a probe cannot see (enums with associated values, polymorphic decoding, an `init(from:)`
/// that refuses placeholder values) is an `EndpointError` of kind
/// `EndpointError/Kind/schemaUnavailable` that names the type: describe it with
/// ``CustomJSONSchema``.
public struct JSONSchema: Sendable {
    indirect enum Node: Sendable {
        case value(JSONValue)
        case derived(@Sendable (SchemaBuilder) throws -> JSONValue)
        case object([(key: String, schema: JSONSchema)], required: [String], closed: Bool)
        case dictionary(values: JSONSchema, keys: JSONSchema?)
        case array(JSONSchema)
        case oneOf([JSONSchema])
        case annotated(JSONSchema, description: String)
        case tagged(JSONSchema, key: String, value: String)
    }

    let node: Node

    init(node: Node) {
        self.node = node
    }

    /// Derives the schema of `type` from its `Decodable` conformance.
    ///
    /// ```swift
    /// let schema = try JSONSchema(for: Branch.self)   // {"title": "Branch", "type": "object", …}
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to describe.
    ///   - encoder: The coder whose key, date and data strategies name and format the properties,
    ///     usually a server's `APIServer/encoder`. Defaults to EndpointKit's (snake_case, ISO 8601).
    /// - Throws: `EndpointError` of kind `EndpointError/Kind/schemaUnavailable` when the
    ///   decoding of `type` or of a type inside it cannot be observed.
    public init<T: Decodable>(for type: T.Type, encoder: JSONEncoder = APIServer.makeEncoder()) throws {
        let builder = SchemaBuilder(encoder: encoder, referencePrefix: "#/$defs/")
        let (_, reference) = try builder.probe(type, at: [])
        var root: JSONValue
        var definitions = builder.definitions
        let name = builder.name(of: type)
        if let own = builder.definition(of: type), !builder.referencedWhileInProgress.contains(name) {
            root = own  // inline the type itself; $defs keeps the others
            definitions.removeAll { $0.key == name }
        } else {
            root = reference
        }
        var members: [JSONValue.Member] = [.init(key: "$schema", value: .string("https://json-schema.org/draft/2020-12/schema"))]
        if case .object(let own) = root { members += own }
        if !definitions.isEmpty { members.append(.init(key: "$defs", value: .object(definitions))) }
        node = .value(.object(members))
    }

    /// A schema written as JSON Schema text.
    ///
    /// ```swift
    /// let money = try JSONSchema(json: #"{"type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"}"#)
    /// ```
    ///
    /// - Throws: `DecodingError` when the text is not JSON.
    public init(json: String) throws {
        node = .value(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    /// The schema as JSON: compact, or indented with one member per line.
    ///
    /// ```swift
    /// try schema.json(prettyPrinted: true).write(to: URL(fileURLWithPath: "cheer-history.schema.json"))
    /// ```
    ///
    /// - Throws: `EndpointError` when a hand-written part refers to a type whose schema cannot
    ///   be derived.
    public func json(prettyPrinted: Bool = false) throws -> Data {
        let builder = SchemaBuilder(encoder: APIServer.makeEncoder(), referencePrefix: "#/$defs/")
        var value = try value(builder: builder)
        if !builder.definitions.isEmpty {
            value["$defs"] = .object(builder.definitions)
        }
        return Data(value.jsonText(prettyPrinted: prettyPrinted).utf8)
    }

    /// The schema as a JSON tree, with the types it refers to added to `builder`'s definitions.
    package func value(builder: SchemaBuilder) throws -> JSONValue {
        switch node {
        case .value(let value):
            return value
        case .derived(let derive):
            return try derive(builder)
        case .object(let properties, let required, let closed):
            var members: [JSONValue.Member] = []
            for property in properties {
                members.append(.init(key: property.key, value: try property.schema.value(builder: builder)))
            }
            var object = JSONValue.object(["type": .string("object"), "properties": .object(members)])
            if !required.isEmpty { object["required"] = .array(required.map(JSONValue.string)) }
            if closed { object["additionalProperties"] = .bool(false) }
            return object
        case .dictionary(let values, let keys):
            var object = JSONValue.object(["type": .string("object")])
            if let keys { object["propertyNames"] = try keys.value(builder: builder) }
            object["additionalProperties"] = try values.value(builder: builder)
            return object
        case .array(let items):
            return .object(["type": .string("array"), "items": try items.value(builder: builder)])
        case .oneOf(let schemas):
            return .object(["oneOf": .array(try schemas.map { try $0.value(builder: builder) })])
        case .annotated(let schema, let description):
            var value = try schema.value(builder: builder)
            value["description"] = .string(description)
            return value
        case .tagged(let schema, let key, let tag):
            // Beside a `$ref` too: JSON Schema 2020-12 applies both.
            var value = try schema.value(builder: builder)
            var properties = value["properties"] ?? .object([:])
            properties[key] = .object(["const": .string(tag)])
            value["properties"] = properties
            var required = value["required"]?.arrayValue ?? []
            if !required.contains(.string(key)) { required.append(.string(key)) }
            value["required"] = .array(required)
            return value
        }
    }
}

// MARK: - Writing schemas by hand

extension JSONSchema {
    /// `{"type": "string"}`, with a `format` such as `"email"` or `"date"`, and a regular
    /// expression the text must match, when given.
    ///
    /// ```swift
    /// static var jsonSchema: JSONSchema { .string(format: "date") }
    /// .string(pattern: "^[A-Z]{3}$")   // a currency code
    /// ```
    public static func string(format: String? = nil, pattern: String? = nil) -> JSONSchema {
        var value = JSONValue.object(["type": .string("string")])
        if let format { value["format"] = .string(format) }
        if let pattern { value["pattern"] = .string(pattern) }
        return JSONSchema(node: .value(value))
    }

    /// Exactly this string: a discriminator in a branch of ``oneOf(_:)``.
    ///
    /// ```swift
    /// .object(["kind": .constant("badge"), "name": .string()], required: ["kind", "name"])
    /// ```
    public static func constant(_ value: String) -> JSONSchema {
        JSONSchema(node: .value(.object(["const": .string(value)])))
    }

    /// `{"type": "integer"}` with no bounds. Prefer ``integer(_:)`` or ``integer(in:)``: a value
    /// the Swift type cannot hold should not be valid.
    public static var integer: JSONSchema { JSONSchema(node: .value(.object(["type": .string("integer")]))) }

    /// An integer in the range of `type`, as derived schemas describe one.
    ///
    /// ```swift
    /// "count": .integer(Int.self)      // minimum -9223372036854775808, maximum 9223372036854775807
    /// ```
    public static func integer<I: FixedWidthInteger & Decodable & SendableMetatype>(_ type: I.Type) -> JSONSchema {
        .type(type)
    }

    /// An integer from `range.lowerBound` to `range.upperBound`.
    ///
    /// ```swift
    /// "stars": .integer(in: 1...5)
    /// ```
    public static func integer(in range: ClosedRange<Int>) -> JSONSchema {
        JSONSchema(node: .value(.object([
            "type": .string("integer"), "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound),
        ])))
    }

    /// `{"type": "number"}` with no bounds. Prefer ``number(_:)``.
    public static var number: JSONSchema { JSONSchema(node: .value(.object(["type": .string("number")]))) }

    /// A number that `type` (`Double`, `Float` or `Decimal`) decodes: within its largest
    /// magnitude, and not so close to zero that it would underflow.
    ///
    /// ```swift
    /// "price": .number(Decimal.self)
    /// ```
    public static func number<R: Decodable & SendableMetatype>(_ type: R.Type) -> JSONSchema {
        .type(type)
    }

    /// `{"type": "boolean"}`.
    public static var boolean: JSONSchema { JSONSchema(node: .value(.object(["type": .string("boolean")]))) }

    /// `{"type": "null"}`.
    public static var null: JSONSchema { JSONSchema(node: .value(.object(["type": .string("null")]))) }

    /// A list of `items`.
    ///
    /// ```swift
    /// .array(of: .string())
    /// ```
    public static func array(of items: JSONSchema) -> JSONSchema {
        JSONSchema(node: .array(items))
    }

    /// An object with these properties (their names as on the wire), `required` naming those that
    /// must be present.
    ///
    /// ```swift
    /// .object(["kind": .string(), "radius": .number], required: ["kind", "radius"])
    /// ```
    ///
    /// `additionalProperties: false` closes the object: a key not listed makes it invalid. Leave it
    /// `true` (the default) for a type that ignores unknown keys, as a synthesized `Decodable` does.
    public static func object(
        _ properties: KeyValuePairs<String, JSONSchema>, required: [String] = [], additionalProperties: Bool = true
    ) -> JSONSchema {
        JSONSchema(node: .object(properties.map { (key: $0.key, schema: $0.value) }, required: required, closed: !additionalProperties))
    }

    /// An object of any keys (`keys`, when given, says what they look like) whose values are `values`:
    /// a dictionary.
    ///
    /// ```swift
    /// .dictionary(of: .integer(Int.self), keys: .string(pattern: "^[a-z]+$"))
    /// ```
    public static func dictionary(of values: JSONSchema, keys: JSONSchema? = nil) -> JSONSchema {
        JSONSchema(node: .dictionary(values: values, keys: keys))
    }

    /// Exactly one of `schemas`: the cases of an enum with associated values, a polymorphic type.
    ///
    /// ```swift
    /// .oneOf([.type(Circle.self), .type(Square.self)])
    /// ```
    public static func oneOf(_ schemas: [JSONSchema]) -> JSONSchema {
        JSONSchema(node: .oneOf(schemas))
    }

    /// The derived schema of another type, referred to by `$ref` where the document defines it.
    ///
    /// ```swift
    /// .array(of: .type(Cheer.self))
    /// ```
    public static func type<T: Decodable & SendableMetatype>(_ type: T.Type) -> JSONSchema {
        JSONSchema(node: .derived { builder in try builder.probe(type, at: []).schema })
    }

    /// This schema with a `description`.
    ///
    /// ```swift
    /// .string(format: "email").described("Where receipts are sent")
    /// ```
    public func described(_ description: String) -> JSONSchema {
        JSONSchema(node: .annotated(self, description: description))
    }

    /// This schema with the property `key` required and fixed to `value`: how one alternative of
    /// a tagged union (a discriminator) is told from the others in a ``oneOf(_:)``.
    ///
    /// ```swift
    /// .oneOf([.type(Cat.self).tagged("species", as: "cat"), .type(Dog.self).tagged("species", as: "dog")])
    /// // {"oneOf": [{"$ref": "#/$defs/Cat", "properties": {"species": {"const": "cat"}}, "required": ["species"]}, …]}
    /// ```
    public func tagged(_ key: String, as value: String) -> JSONSchema {
        JSONSchema(node: .tagged(self, key: key, value: value))
    }
}
