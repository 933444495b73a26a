/// Marks an endpoint property whose list is written in its own ``ArrayEncoding``, whatever the
/// server's ``APIServer/arrayEncoding``.
///
/// The property stays where it would go (the query of a `GET`, the fields of a form body); only
/// the spelling of its list changes. In a JSON body it is an ordinary JSON array. The memberwise
/// initializer takes the plain value.
///
/// ```swift
/// struct SearchRepositories: Endpoint {
///     var endpoint: Restful { Restful(.get, "search/repositories") }   // ?in_name=swift,nio&page=1
///     @EncodedArray(.commaSeparated) var inName: [String] = []
///     var page = 1
///     struct ReturnPayloadType: Decodable, Sendable { let totalCount: Int }
/// }
/// ```
@propertyWrapper
public struct EncodedArray<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The list.
    public var wrappedValue: Value
    /// How the list is written.
    public let encoding: ArrayEncoding

    /// Wraps a list written with `encoding`; Swift calls this for you when you write
    /// `@EncodedArray(.brackets) var match: [String] = []`.
    ///
    /// ```swift
    /// @EncodedArray(.brackets) var match: [String] = []
    /// ```
    public init(wrappedValue: Value, _ encoding: ArrayEncoding) {
        self.wrappedValue = wrappedValue
        self.encoding = encoding
        WrapperLog.current?.record(self)
    }

    /// Encodes the value alone, as if the property were not wrapped.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension EncodedArray: Equatable where Value: Equatable {}
extension EncodedArray: Hashable where Value: Hashable {}

/// An ``EncodedArray`` property, seen through its value.
package protocol StyledArray {
    var arrayEncoding: ArrayEncoding { get }
    var listValue: any Encodable { get }
}

extension EncodedArray: StyledArray {
    package var arrayEncoding: ArrayEncoding { encoding }
    package var listValue: any Encodable { wrappedValue }
}
