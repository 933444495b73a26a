#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
/// A Swift declaration the generator writes: a struct, an enum or a type alias, with the types
/// nested in it. The mappers build these; ``SwiftWriter`` turns them into text.
struct Declaration {
    enum Kind {
        /// A struct (or, for a type that holds itself, a final class) of properties.
        case structure(StructShape)
        /// `enum Name: String` (or `Int`) with one case per value.
        case valueEnum(rawType: String, cases: [(name: String, value: String)])
        /// An enum with one case per alternative and its own `Codable` code.
        case union(UnionShape)
        /// `typealias Name = Type`.
        case alias(String)
    }

    var name: String
    var documentation: [String]
    var kind: Kind
    var nested: [Declaration] = []
    /// Only read from answers, never sent: `Decodable` rather than `Codable`, as a person writes a
    /// payload type, and the compiler has half the code to make.
    var isReadOnly = false

    /// This declaration and every type nested in it, read-only.
    var readOnly: Declaration {
        var copy = self
        copy.isReadOnly = true
        copy.nested = nested.map(\.readOnly)
        return copy
    }
}

/// A struct's properties and what the endpoint form adds.
struct StructShape {
    var properties: [Property]
    /// Written as `final class` with an initializer: the type holds itself through optionals.
    var isClass = false
    /// For an endpoint: its conformances, `endpoint` and static members, written before the properties.
    var endpoint: EndpointShape?
    /// Whether `CodingKeys` spell out keys that the coders would not derive from the property names.
    var needsCodingKeys: Bool { properties.contains { $0.codingKey != nil } }
}

/// One stored property.
struct Property {
    var name: String
    /// The key in JSON, the query or a form when it is not what the coders derive from `name`.
    var codingKey: String?
    /// The type without the optional mark.
    var type: String
    var isOptional: Bool
    /// Whether the schema allows `null` (a PATCH body sends it through `Nullable`).
    var allowsNull = false
    var documentation: [String] = []
    /// `@QueryItem`, `@HeaderField("X-Trace")`, `@EncodedArray(.commaSeparated)`, `@Body`.
    var wrapper: String?
    /// A fixed value (a union's tag): written as `var name: Type = value`.
    var defaultValue: String?
    /// Written with `var` rather than `let`: pagination writes the next page into it.
    var isVariable = false
}

/// How an enum with associated values tells its alternatives apart.
struct UnionShape {
    struct Alternative {
        var caseName: String
        var type: String
        /// The tag values that select it, for a tagged union.
        var tags: [String] = []
        /// The JSON type that selects it, for a union of distinct JSON types.
        var jsonType: String?
        /// For one of several object alternatives without a tag: a required key only it has (its
        /// Swift name as `CodingKeys` spells it, and the raw value when the coders need one).
        var presentKey: (name: String, codingKey: String?)?
    }

    var alternatives: [Alternative]
    /// The tag's Swift key (as `CodingKeys` spells it) and its JSON name, for a tagged union.
    var tag: (key: String, codingKey: String?, json: String)?
    /// A value of the union as wire JSON, which the generated `CustomJSONSchema` conformance decodes.
    var example = "null"
}

/// What makes a struct an endpoint.
struct EndpointShape {
    /// `Endpoint`, `PaginatedEndpoint`.
    var conformances: [String]
    /// `Restful(.get, "items/{itemId}")`.
    var restful: String
    /// `typealias ReturnPayloadType = Item`, `static var …`, `static func …`, written after the properties.
    var members: [String]
    /// Wrapped properties make the struct `struct X: nonisolated Endpoint` (Swift refuses
    /// `nonisolated` on a type whose stored properties have wrappers).
    var hasWrappers: Bool
}
#endif
