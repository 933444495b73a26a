/// A JSON value that may be an explicit `null`, for bodies where `null` and "absent" differ.
///
/// In a JSON body a `nil` optional property is left out. JSON merge-patch (RFC 7396) deletes a
/// field by sending `null` for it: declare the property `Nullable<T>?`, and `nil` stays absent
/// while `.null` sends `null`.
///
/// ```swift
/// struct PatchRecord: Endpoint {
///     var endpoint: Restful {
///         Restful(.patch, "records/{id}", body: .json(contentType: "application/merge-patch+json"))
///     }
///     let id: String
///     var title: Nullable<String>? = nil
///     var note: Nullable<String>? = nil
///     typealias ReturnPayloadType = EmptyPayload
/// }
///
/// try await PatchRecord(id: "r1", title: .value("Hello"), note: .null).call()
/// // {"title":"Hello","note":null}
/// ```
///
/// In a query string or form body `.null` sends nothing, like `nil`. Decoding reads `null` as
/// ``null`` and anything else as ``value(_:)``.
public enum Nullable<Wrapped: Sendable>: Sendable {
    /// An explicit `null`.
    case null
    /// A value.
    case value(Wrapped)

    /// The value, or `nil` for ``null``.
    ///
    /// ```swift
    /// let title: String? = record.title.wrapped
    /// ```
    public var wrapped: Wrapped? {
        if case .value(let value) = self { value } else { nil }
    }
}

extension Nullable: Equatable where Wrapped: Equatable {}
extension Nullable: Hashable where Wrapped: Hashable {}

extension Nullable: Encodable where Wrapped: Encodable {
    /// Encodes `null` or the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .value(let value): try container.encode(value)
        }
    }
}

extension Nullable: Decodable where Wrapped: Decodable {
    /// Decodes `null` as ``null``, anything else as the value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Wrapped.self))
    }
}
