import EndpointKit
/// A type that describes its own JSON Schema, for decoding that a probe cannot observe: enums with
/// associated values, polymorphic payloads, an `init(from:)` that validates its input.
///
/// ```swift
/// enum Shape: Decodable, CustomJSONSchema {
///     case circle(radius: Double)
///     case square(side: Double)
///
///     static var jsonSchema: JSONSchema {
///         .oneOf([
///             .object(["circle": .object(["radius": .number(Double.self)], required: ["radius"])],
///                     required: ["circle"], additionalProperties: false),
///             .object(["square": .object(["side": .number(Double.self)], required: ["side"])],
///                     required: ["square"], additionalProperties: false),
///         ])
///     }
///     static var schemaExample: Shape { .circle(radius: 1) }
/// }
/// ```
///
/// The schema replaces what derivation would find; its title defaults to the type's name.
public protocol CustomJSONSchema: Decodable {
    /// The type's schema.
    static var jsonSchema: JSONSchema { get }

    /// A value of the type, which stands for it while the types that contain it are derived.
    static var schemaExample: Self { get }
}
