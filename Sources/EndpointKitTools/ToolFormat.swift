import EndpointKit
import EndpointKitContract
/// The shape of tool definitions a model provider accepts.
///
/// ```swift
/// let definitions = try tools.definitions(for: .openAI)   // or .openAIChat, .anthropic, .mcp
/// ```
public struct ToolFormat: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case openAIResponses
        case openAIChat
        case anthropic
        case mcp
    }

    let kind: Kind

    /// OpenAI's Responses API: `{"type": "function", "name", "description", "parameters",
    /// "strict": true}`, the parameters in strict mode (every object closed, every property
    /// required, optionals nullable, only the keywords strict mode accepts).
    public static let openAI = ToolFormat(kind: .openAIResponses)

    /// OpenAI's Chat Completions API, which OpenAI-compatible servers speak:
    /// `{"type": "function", "function": {"name", "description", "parameters", "strict": true}}`,
    /// strict as ``openAI``.
    public static let openAIChat = ToolFormat(kind: .openAIChat)

    /// Anthropic's Messages API: `{"name", "description", "input_schema"}`.
    public static let anthropic = ToolFormat(kind: .anthropic)

    /// The Model Context Protocol's `tools/list`: `{"name", "title", "description", "inputSchema",
    /// "annotations"}`, with `readOnlyHint` for `GET` and `HEAD`, `destructiveHint` for `DELETE`
    /// and `idempotentHint` for idempotent methods.
    public static let mcp = ToolFormat(kind: .mcp)

    /// `"openAI"`, `"openAIChat"`, `"anthropic"` or `"mcp"`.
    public var description: String {
        switch kind {
        case .openAIResponses: "openAI"
        case .openAIChat: "openAIChat"
        case .anthropic: "anthropic"
        case .mcp: "mcp"
        }
    }

    var isStrict: Bool { kind == .openAIResponses || kind == .openAIChat }
}
