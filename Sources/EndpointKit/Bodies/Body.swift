/// Marks the one endpoint property that is the whole JSON body, instead of an object of the
/// properties.
///
/// A JSON Patch body (RFC 6902) is a top-level array; a registry manifest is one document. Mark
/// that property `@Body`; the other properties must then have another place: a path placeholder,
/// ``QueryItem`` or ``HeaderField``. Any `Encodable` works, encoded with the server's encoder.
///
/// ```swift
/// struct PatchRepository: Endpoint {
///     var endpoint: Restful {
///         Restful(.patch, "repos/{id}", body: .json(contentType: "application/json-patch+json"))
///     }
///     let id: Int
///     @Body var operations: [PatchOperation]
///     typealias ReturnPayloadType = EmptyPayload
/// }
///
/// try await PatchRepository(id: 7, operations: [.init(op: "remove", path: "/topics/0")]).call()
/// // [{"op":"remove","path":"/topics/0"}]
/// ```
///
/// With ``BodyFormat/raw(contentType:)`` the property is the raw body (`Data` or `String`); a form
/// or multipart body, or a method without a body, refuses it with an
/// ``EndpointError/Kind/invalidRequest`` error.
@propertyWrapper
public struct Body<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The body.
    public var wrappedValue: Value

    /// Wraps the body; Swift calls this for you when you write `@Body var name: Type`.
    ///
    /// ```swift
    /// @Body var operations: [PatchOperation]
    /// ```
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Encodes the value alone, as if the property were not wrapped.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Body: Equatable where Value: Equatable {}
extension Body: Hashable where Value: Hashable {}

/// A ``Body`` property, seen through its value.
package protocol WholeBody {
    var bodyValue: any Encodable { get }
}

extension Body: WholeBody {
    package var bodyValue: any Encodable { wrappedValue }
}
