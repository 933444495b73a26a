import EndpointKit
import Foundation

/// A type or endpoint that documents itself for its JSON Schema and the OpenAPI document: titles,
/// descriptions, examples and formats, with no macro.
///
/// ```swift
/// extension PurchaseCheer: Documented {
///     static var documentation: Documentation {
///         Documentation(
///             summary: "Buy a cheer",
///             description: "Charges the store transaction and returns the new balance.",
///             tags: ["cheers"],
///             properties: [
///                 "identifier": "The product identifier, e.g. cheer.large",
///                 "transactionId": .init("The store's transaction number", example: 1_000_000_007),
///             ])
///     }
/// }
/// ```
public protocol Documented {
    /// The documentation of the type, keyed by Swift property names.
    static var documentation: Documentation { get }
}

/// What ``Documented`` attaches to a type or an endpoint.
///
/// ```swift
/// Documentation(description: "A purchase of cheers", properties: ["amount": "How many cheers"])
/// ```
public struct Documentation: Sendable {
    /// The title of the type's schema; defaults to the type's name.
    public var title: String?
    /// One line: an endpoint's operation summary.
    public var summary: String?
    /// Longer text: the schema's or the operation's description.
    public var description: String?
    /// Groups of an endpoint in the OpenAPI document, e.g. `["cheers"]`.
    public var tags: [String]
    /// The status of a successful answer of an endpoint, when it is not 200 (or 204 for
    /// `EmptyPayload`), e.g. 201 for an upload that creates something.
    public var status: Int?
    /// Notes on properties (or parameters), keyed by Swift property name.
    public var properties: [String: Property]

    /// Creates documentation; every part is optional.
    ///
    /// ```swift
    /// Documentation(summary: "Upload a photo", tags: ["photos"], status: 201)
    /// ```
    public init(
        title: String? = nil, summary: String? = nil, description: String? = nil, tags: [String] = [],
        status: Int? = nil, properties: [String: Property] = [:]
    ) {
        self.title = title
        self.summary = summary
        self.description = description
        self.tags = tags
        self.status = status
        self.properties = properties
    }

    /// Notes on one property: a description, an example, a format, deprecation. A string literal
    /// is a description.
    ///
    /// ```swift
    /// let note: Documentation.Property = .init("Where receipts go", example: "ana@example.com", format: "email")
    /// ```
    public struct Property: Sendable, ExpressibleByStringLiteral {
        /// What the property means.
        public var description: String?
        /// An example value as JSON, encoded with EndpointKit's default encoder.
        var example: JSONValue?
        /// A JSON Schema `format`, e.g. `"email"`, replacing the derived one.
        public var format: String?
        /// Whether the property is deprecated.
        public var isDeprecated: Bool

        /// Creates notes on a property.
        ///
        /// - Parameters:
        ///   - description: What the property means.
        ///   - example: An example value, written as the default encoder writes it.
        ///   - format: A JSON Schema `format`, such as `"email"`.
        ///   - isDeprecated: Whether the property is deprecated.
        public init(_ description: String? = nil, example: (any Encodable & Sendable)? = nil, format: String? = nil, isDeprecated: Bool = false) {
            self.description = description
            self.example = example.flatMap(Self.json)
            self.format = format
            self.isDeprecated = isDeprecated
        }

        /// A description alone.
        public init(stringLiteral description: String) {
            self.init(description)
        }

        private static func json(_ value: any Encodable) -> JSONValue? {
            guard let data = try? APIServer.makeEncoder().encode(value), MissingCaseNames.found(in: data) == nil else { return nil }
            return try? JSONDecoder().decode(JSONValue.self, from: data)
        }
    }
}

extension Documentation {
    /// `schema` with the title, description and property notes added. `record` maps Swift
    /// property names to the names on the wire.
    func applied(to schema: JSONValue, record: ProbeRecord?) -> JSONValue {
        var schema = schema
        if let title { schema["title"] = .string(title) }
        if let description { schema["description"] = .string(description) }
        guard let record, case .object(var members)? = schema["properties"] else { return schema }
        for property in record.properties {
            guard let note = properties[property.swiftName],
                  let index = members.firstIndex(where: { $0.key == property.wireName }) else { continue }
            members[index].value = note.applied(to: members[index].value)
        }
        schema["properties"] = .object(members)
        return schema
    }
}

extension Documentation.Property {
    func applied(to schema: JSONValue) -> JSONValue {
        var schema = schema
        if let description { schema["description"] = .string(description) }
        if let example { schema["examples"] = .array([example]) }
        if let format { schema["format"] = .string(format) }
        if isDeprecated { schema["deprecated"] = .bool(true) }
        return schema
    }
}
