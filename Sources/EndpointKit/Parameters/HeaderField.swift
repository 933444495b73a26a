/// Marks an endpoint property as a request header: it is sent under `name` and nowhere else.
///
/// A header property wins over the endpoint's ``Endpoint/headers`` and the server's
/// ``APIServer/headers`` of the same name (in any case). A `nil` value sends no header; a list is sent
/// as one comma-separated value. Values follow the query rules (numbers and booleans as text,
/// dates in the server's date format), and a value with CR, LF or another control character is
/// an ``EndpointError`` of kind ``EndpointError/Kind/invalidRequest`` before anything is sent.
///
/// The name follows `URLRequest`'s header fields (`value(forHTTPHeaderField:)`), and no Apple
/// framework exports it, so it never clashes in an app that imports SwiftUI or SwiftData.
///
/// Swift needs an initial value for a property wrapper with arguments, so give the property an
/// optional type with `= nil` (or a default value). The memberwise initializer takes the plain value:
///
/// ```swift
/// struct Upload: Endpoint {
///     var endpoint: Restful { Restful(.post, "uploads") }
///     @HeaderField("X-Request-ID") var requestID: String? = nil
///     let title: String
///     typealias ReturnPayloadType = EmptyPayload
/// }
///
/// try await Upload(requestID: "abc", title: "Holidays").call()
/// ```
@propertyWrapper
public struct HeaderField<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The header's value.
    public var wrappedValue: Value
    /// The header's name, e.g. `"X-Request-ID"`.
    public let name: String

    /// Wraps a value sent as the header `name`; Swift calls this for you when you write
    /// `@HeaderField("X-Request-ID") var requestID: String? = nil`.
    ///
    /// ```swift
    /// @HeaderField("If-None-Match") var etag: String? = nil
    /// ```
    public init(wrappedValue: Value, _ name: String) {
        self.wrappedValue = wrappedValue
        self.name = name
        WrapperLog.current?.record(self)
    }

    /// Encodes the value alone, as if the property were not wrapped.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension HeaderField: Equatable where Value: Equatable {}
extension HeaderField: Hashable where Value: Hashable {}

extension HeaderField: PlacedParameter {
    package var placement: Placement { .header(name) }
    package var parameterValue: any Encodable { wrappedValue }
}
