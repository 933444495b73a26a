import Foundation

/// A request body format: the media type it sends and how it writes an endpoint's body properties.
///
/// JSON, form, multipart and raw bodies are writers of EndpointKit's own. A format of yours (CBOR,
/// CSV, XML) is one more writer, offered as a ``BodyFormat`` so that an endpoint names it as it
/// names the others:
///
/// ```swift
/// struct PlainTextWriter: BodyWriter {
///     var mediaType: String { "text/plain" }
///     func write(_ properties: some Encodable, for server: APIServer) throws -> Data {
///         Data(String(describing: properties).utf8)
///     }
/// }
///
/// extension BodyFormat {
///     nonisolated static let plainText = BodyFormat(PlainTextWriter())
/// }
///
/// struct PostNote: Endpoint {
///     var endpoint: Restful { Restful(.post, "notes", body: .plainText) }
///     let text: String
///     typealias ReturnPayloadType = EmptyPayload
/// }
/// ```
///
/// The path, the query and `@HeaderField` properties are placed before the writer runs, so it
/// sees only what belongs in the body; the body's `Content-Type` is ``mediaType``, and
/// recordings, OpenAPI documents and tool schemas name the body by it.
public protocol BodyWriter: Hashable, Sendable {
    /// The body's media type: its `Content-Type`, and its key in an OpenAPI document.
    var mediaType: String { get }

    /// Writes the body.
    ///
    /// - Parameters:
    ///   - properties: The endpoint's body properties, as one value that encodes them in a keyed
    ///     container in the order the endpoint encodes them; with a ``Body`` property, that
    ///     property's value instead.
    ///   - server: The server called: its ``APIServer/encoder`` (key, date and data strategies) and
    ///     ``APIServer/arrayEncoding`` are what a format may follow.
    /// - Throws: Any error, reported as the call's ``EndpointError/Kind/invalidRequest`` with
    ///   nothing sent.
    func write(_ properties: some Encodable, for server: APIServer) throws -> Data

    /// What an OpenAPI document says the body is, given the JSON Schema of what
    /// ``write(_:for:)`` receives (an object of the body properties, or a ``Body`` property's
    /// schema). By default that schema itself.
    ///
    /// ```swift
    /// func schema(ofBody properties: JSONValue) -> JSONValue {
    ///     ["type": "string", "contentMediaType": "text/plain"]
    /// }
    /// ```
    func schema(ofBody properties: JSONValue) -> JSONValue
}

extension BodyWriter {
    /// The schema of what ``write(_:for:)`` receives, unchanged.
    public func schema(ofBody properties: JSONValue) -> JSONValue { properties }
}
