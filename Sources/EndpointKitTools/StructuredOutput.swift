import EndpointKit
import EndpointKitContract
import Foundation

/// A JSON answer shaped like a Swift type: the `response_format` that asks a model for it (OpenAI's
/// strict JSON Schema), and the decoding of the answer back into the type.
///
/// ```swift
/// struct Summary: Decodable, Sendable { let title: String; let keyPoints: [String]; let mood: Mood? }
///
/// let output = try StructuredOutput(Summary.self)
/// let request = ChatRequest(model: "gpt-5", messages: messages, responseFormat: output.responseFormat)
/// // … the model answers with JSON text …
/// let summary = try output.decode(answer)
/// ```
///
/// The schema is the type's `JSONSchema` in strict mode (see ``ToolFormat/openAI``): names on the
/// wire as the encoder writes them (snake_case by default), optionals as required-but-nullable.
public struct StructuredOutput<Value: Decodable>: Sendable {
    /// `{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}`, for a chat
    /// request's `response_format`.
    public let responseFormat: RawJSON
    /// The strict schema alone, for APIs that take it elsewhere (the Responses API's `text.format`).
    public let schema: RawJSON
    private let coders: JSONCoders

    /// Describes `type` for a model.
    ///
    /// - Parameters:
    ///   - type: The type the answer decodes into.
    ///   - name: The schema's name in the request; defaults to the type's name in snake_case.
    ///   - encoder: Whose strategies name the properties; defaults to EndpointKit's.
    ///   - decoder: What reads the answer; defaults to EndpointKit's (snake_case, ISO 8601 dates).
    /// - Throws: `EndpointError` of kind `EndpointError/Kind/schemaUnavailable` when the type
    ///   cannot be derived or has no strict form (a dictionary, a value of any type).
    public init(
        _ type: Value.Type, name: String? = nil, encoder: JSONEncoder = APIServer.makeEncoder(), decoder: JSONDecoder = APIServer.makeDecoder()
    ) throws {
        let builder = SchemaBuilder(encoder: encoder, referencePrefix: "#/$defs/")
        var root = SchemaBuilder.nonNull(try builder.probe(type, at: []).schema)
        let ownName = builder.name(of: type)
        if root["$ref"] != nil, let own = builder.definition(of: type) {
            root = own  // the answer is an object; a recursive type's own $defs entry stays for its $refs
            if !builder.referencedWhileInProgress.contains(ownName) { builder.removeDefinition(of: type) }
        }
        if !builder.definitions.isEmpty { root["$defs"] = .object(builder.definitions) }
        let strict: JSONValue
        do {
            strict = try StrictSchema.transform(root, at: ownName)
        } catch let problem as StrictSchema.Problem {
            throw EndpointError(kind: .schemaUnavailable, route: String(reflecting: type), reason: "it has no form in OpenAI's strict mode: \(problem.reason)")
        }
        guard strict["type"] == .string("object") else {
            throw EndpointError(kind: .schemaUnavailable, route: String(reflecting: type), reason: "a structured answer must be an object, so wrap the value in a struct")
        }
        schema = RawJSON(strict)
        responseFormat = RawJSON(.object(["type": .string("json_schema"), "json_schema": .object([
            "name": .string(name ?? Tool.toolName(of: type)), "strict": .bool(true), "schema": strict,
        ])]))
        coders = JSONCoders(encoder: encoder, decoder: decoder)
    }

    /// Decodes the model's answer.
    ///
    /// ```swift
    /// let summary = try output.decode(#"{"title": "Q3", "key_points": ["up 4 %"], "mood": null}"#)
    /// ```
    ///
    /// - Throws: `DecodingError` when the answer does not match the type.
    public func decode(_ answer: String) throws -> Value {
        try coders.decoder.decode(Value.self, from: Data(answer.utf8))
    }
}
