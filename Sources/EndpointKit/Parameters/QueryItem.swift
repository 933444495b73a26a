/// Marks an endpoint property as a query parameter, whatever the method.
///
/// By default the properties of a `POST`, `PUT` or `PATCH` endpoint form its body. `@QueryItem` sends
/// one of them in the query string instead, with the same rules as the query of a `GET`
/// (snake_case name, `nil` left out, arrays as repeated keys). The memberwise initializer still
/// takes the plain value.
///
/// The name follows Foundation's `URLQueryItem`; it is not `Query` because SwiftData exports a
/// property wrapper of that name, and a file importing both would not compile.
///
/// ```swift
/// struct PostComment: Endpoint {
///     var endpoint: Restful { Restful(.post, "posts/{postId}/comments") }  // POST …/posts/7/comments?notify=true
///     let postId: Int
///     @QueryItem var notify: Bool
///     let text: String                                           // {"text":"Nice!"}
///     typealias ReturnPayloadType = EmptyPayload
/// }
///
/// try await PostComment(postId: 7, notify: true, text: "Nice!").call()
/// ```
@propertyWrapper
public struct QueryItem<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The parameter's value.
    public var wrappedValue: Value

    /// Wraps a value; Swift calls this for you when you write `@QueryItem var name: Type`.
    ///
    /// ```swift
    /// @QueryItem var page: Int = 1
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

extension QueryItem: Equatable where Value: Equatable {}
extension QueryItem: Hashable where Value: Hashable {}

extension QueryItem: PlacedParameter {
    package var placement: Placement { .query }
    package var parameterValue: any Encodable { wrappedValue }
}
