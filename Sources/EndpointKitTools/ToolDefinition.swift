import EndpointKit
import EndpointKitContract
import Foundation

/// One endpoint as a tool, in the shape a model provider accepts; `Encodable` as that JSON, so it
/// goes straight into a chat request.
///
/// ```swift
/// struct ChatRequest: Encodable {
///     let model: String
///     let messages: [Message]
///     let tools: [ToolDefinition]
/// }
/// let request = ChatRequest(model: "gpt-5", messages: messages, tools: try tools.definitions(for: .openAIChat))
/// ```
public struct ToolDefinition: Encodable, Sendable, CustomStringConvertible {
    /// The tool's name: the endpoint type's name in snake_case, e.g. `cheer_history`.
    public let name: String
    /// What the tool does: the endpoint's documented summary and description, or its method and path.
    public let summary: String
    /// The whole definition as JSON.
    public let json: RawJSON

    /// The definition, indented.
    public var description: String { json.description }

    /// Encodes the definition as the provider expects it, keys as written.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

/// A tool call the model asked for that is not read-only, handed to the app's confirmation hook
/// before anything is sent.
///
/// ```swift
/// let tools = EndpointTools([PurchaseCheer.self], confirmation: { call in
///     await askUser("Allow \(call.method) \(call.url.path) with \(call.arguments)?")
/// })
/// ```
public struct PendingToolCall: Sendable {
    /// The tool's name.
    public let name: String
    /// The HTTP method the call would use.
    public let method: RequestMethod
    /// The URL the call would go to, before any authorization middleware adds credentials.
    public let url: URL
    /// The model's arguments, as JSON text.
    public let arguments: String
}

/// What a tool call gives back to the model: JSON text, and whether it reports an error.
///
/// ```swift
/// let result = try await tools.result(name: call.name, arguments: call.arguments)
/// messages.append(.tool(callID: call.id, content: result.text))
/// ```
public struct ToolResult: Sendable {
    /// JSON for the model: the payload, or `{"error": {…}}` saying what went wrong and what to fix.
    public let text: String
    /// Whether ``text`` reports an error (Anthropic's `is_error`, MCP's `isError`).
    public let isError: Bool
    /// The error behind an error result, for the app: an `EndpointError`.
    public let error: (any Error)?
    /// MCP's `structuredContent`: the payload, secrets redacted, as the tool's `outputSchema`
    /// describes it (an object payload as it is, any other wrapped in `{"result": …}`), when the
    /// tool has one and the payload was not cut short.
    package let structured: JSONValue?
    /// Whether the tool has a structured result but this one was cut short at the result size
    /// limit, so it has none.
    package var structuredWithheld = false
}
