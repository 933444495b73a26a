import EndpointKit
import EndpointKitContract
import Foundation

/// Endpoints a language model may call as tools: their definitions for the provider, and the
/// calls the model asks for, validated, sent through the server with all its middlewares, and
/// answered with JSON the model can read.
///
/// ```swift
/// let tools = EndpointTools([CheerHistory.self, PurchaseCheer.self], on: .reiterate)
/// let definitions = try tools.definitions(for: .openAIChat)         // send with the chat request
/// // … the model answers with tool calls …
/// let result = try await tools.result(name: call.name, arguments: call.arguments)
/// messages.append(.tool(callID: call.id, content: result.text))   // feed it back
/// ```
///
/// - An endpoint is a tool when it is `Decodable` (see `OpenAPIDocument` for what that asks of
///   it): the model's arguments decode into the struct, its properties by their names on the wire.
///   `@HeaderField` properties are not arguments: they keep the values the app declared.
/// - Bad arguments never reach the network: an unknown tool, text that is not one JSON object, a
///   key given twice, a missing, unknown or mistyped field at any depth (checked against the
///   tool's own schema, named by its path such as `items[2].sku`), a number out of its type's
///   range, a path value EndpointKit would refuse. The result tells the model what to fix;
///   ``call(name:arguments:)`` throws the same as an `EndpointError`.
/// - The app chooses the endpoints; `confirmation` runs before every call that is not read-only
///   (not `GET` or `HEAD`). Credentials never appear in definitions, and every credential the
///   call sent (authorization middlewares' headers and query parameters, `Authorization`,
///   `Proxy-Authorization`, `Cookie`) is replaced by `<redacted>` wherever a server echoed it
///   in a result. Every result, error or not, is valid JSON of at most `maximumResultSize`
///   bytes, cut short saying so.
public struct EndpointTools: Sendable {
    let tools: [Tool]
    let server: APIServer?
    package let maximumResultSize: Int
    let confirmation: (@Sendable (PendingToolCall) async -> Bool)?
    /// Each tool's structured form, found once: `true` when results are wrapped in
    /// `{"result": …}`, `false` when the payload is the object, absent from the table's value
    /// (`.some(nil)`) when there is none.
    private let structuredForms = Locked<[String: Bool?]>([:])
    /// Each tool's arguments schema, derived once for a server that cannot change (this one's,
    /// or the endpoint's own): what every call is checked against.
    let argumentSchemas = Locked<[String: JSONValue]>([:])

    /// Offers `endpoints` as tools.
    ///
    /// - Parameters:
    ///   - endpoints: The endpoint types the model may call, each `Decodable`.
    ///   - server: The server to call them on; `nil` (the default) uses each endpoint's own
    ///     `Endpoint/server` or `APIServer/default`, as `call()` does.
    ///   - maximumResultSize: The longest result text, in bytes, a model gets (at least 256); a
    ///     longer payload or error is cut and marked as truncated. Defaults to 16 KiB.
    ///   - confirmation: Asked before a call that is not read-only; `false` declines it and the
    ///     model is told so. Defaults to none: every call proceeds.
    public init(
        _ endpoints: [any (Endpoint & Decodable).Type], on server: APIServer? = nil, maximumResultSize: Int = 16 << 10,
        confirmation: (@Sendable (PendingToolCall) async -> Bool)? = nil
    ) {
        tools = endpoints.map { Tool($0) }
        self.server = server
        self.maximumResultSize = max(maximumResultSize, 256)
        self.confirmation = confirmation
    }

    /// The tools' names, in the order given: each endpoint type's name in snake_case.
    ///
    /// ```swift
    /// print(tools.names)   // ["cheer_history", "purchase_cheer"]
    /// ```
    public var names: [String] { tools.map(\.name) }

    /// The definitions of every tool in `format`.
    ///
    /// ```swift
    /// let definitions = try tools.definitions(for: .anthropic)
    /// ```
    ///
    /// - Throws: `EndpointError` of kind `EndpointError/Kind/schemaUnavailable` when an
    ///   endpoint cannot be a tool: two share a name, it streams its answer, it takes a file, or
    ///   its arguments have no form in the format (a dictionary in OpenAI's strict mode).
    public func definitions(for format: ToolFormat) throws -> [ToolDefinition] {
        try checkNames()
        return try tools.map { try $0.definition(format, server: server) }
    }

    /// Calls the tool `name` with the model's `arguments` and returns the result for the model:
    /// the payload as JSON, or an error object that says what went wrong and what to fix.
    ///
    /// ```swift
    /// let result = try await tools.result(name: "cheer_history", arguments: #"{"user_id": 42}"#)
    /// ```
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; every other failure is
    ///   an error result.
    public func result(name: String, arguments: String) async throws(CancellationError) -> ToolResult {
        try await result(name: name, arguments: .text(arguments))
    }

    /// Calls the tool `name` with arguments the caller has parsed already: Anthropic's `input`,
    /// MCP's `arguments`. The value is checked as text arguments are, with no second parse.
    ///
    /// ```swift
    /// let result = try await tools.result(name: "cheer_history", arguments: ["user_id": 42])
    /// ```
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; every other failure is
    ///   an error result.
    public func result(name: String, arguments: JSONValue) async throws(CancellationError) -> ToolResult {
        try await result(name: name, arguments: .value(arguments))
    }

    private func result(name: String, arguments: Tool.Arguments) async throws(CancellationError) -> ToolResult {
        let secrets = ToolSecrets()
        do {
            let redacted = secrets.redact(try await perform(name: name, arguments: arguments, secrets: secrets))
            let whole = redacted.jsonText()
            let text = ToolResults.truncated(whole, limit: maximumResultSize)
            // MCP's structured content: the payload, as the tool's `outputSchema` says, unless it
            // was cut short. (`JSONValue` is `ExpressibleByNilLiteral`: an `if`, not `? :`, keeps
            // "none" from becoming a JSON null.)
            let wrapped = (try? structuredForm(of: name)) ?? nil
            let complete = text.utf8.count == whole.utf8.count
            var structured: JSONValue?
            if complete, let wrapped {
                structured = wrapped ? .object([Tool.wrappedResultKey: redacted]) : redacted
            }
            return ToolResult(text: text, isError: false, error: nil, structured: structured, structuredWithheld: wrapped != nil && !complete)
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let value = ToolResults.errorValue(error, tool: names.contains(name) ? name : nil, tools: names)
            return ToolResult(text: ToolResults.text(value, secrets: secrets, limit: maximumResultSize), isError: true, error: error, structured: nil)
        }
    }

    /// Whether the tool `name` has a structured result, wrapped (`true`) or not (`false`), as its
    /// MCP `outputSchema` says; `nil` when it has none.
    func structuredForm(of name: String) throws -> Bool? {
        if let known = structuredForms.withLock({ $0[name] }) { return known }
        guard let tool = tools.first(where: { $0.name == name }) else { return nil }
        let form = try tool.structuredForm(server: server)
        structuredForms.withLock { $0[name] = .some(form) }
        return form
    }

    // MARK: - What an MCP server asks before a call

    /// What calling `name` with `arguments` would send, without sending it: `nil` for a read-only
    /// call, an unknown tool or arguments the call would refuse (the call itself reports those).
    package func pendingCall(name: String, arguments: JSONValue) -> PendingToolCall? {
        guard (try? checkNames()) != nil, let tool = tools.first(where: { $0.name == name }) else { return nil }
        return (try? tool.pendingCall(.value(arguments), in: self)) ?? nil
    }

    /// Whether the app gave a `confirmation` closure, which then decides every call that is not
    /// read-only.
    package var confirmsCalls: Bool { confirmation != nil }

    /// Whether the tool's structured results are wrapped in `{"result": …}` (`true`) or not
    /// (`false`), as its `.mcp` definition's `outputSchema` says; `nil` when it has none.
    package func wrapsStructuredResult(of name: String) -> Bool? {
        (try? structuredForm(of: name)) ?? nil
    }

    /// Calls the tool `name` with the model's `arguments` (a JSON object as text) and returns the
    /// payload as JSON text, with the call's credentials replaced as in ``result(name:arguments:)-(_,String)``.
    ///
    /// ```swift
    /// let json = try await tools.call(name: "cheer_history", arguments: #"{"user_id": 42}"#)
    /// ```
    ///
    /// - Throws: `EndpointError`: `EndpointError/Kind/invalidToolCall` for bad arguments (nothing
    ///   was sent), `EndpointError/Kind/toolCallDeclined` when the confirmation declined, and the
    ///   endpoint's own errors when the call failed; `CancellationError` when the task is cancelled.
    ///   The error is for the app: its response body is as the server sent it, secrets included.
    public func call(name: String, arguments: String) async throws -> String {
        let secrets = ToolSecrets()
        let value = try await perform(name: name, arguments: .text(arguments), secrets: secrets)
        return ToolResults.text(value, secrets: secrets, limit: maximumResultSize)
    }

    private func perform(name: String, arguments: Tool.Arguments, secrets: ToolSecrets) async throws -> JSONValue {
        try checkNames()
        guard let tool = tools.first(where: { $0.name == name }) else {
            throw EndpointError(
                kind: .invalidToolCall, route: name,
                reason: "there is no tool named \"\(name)\"; the tools are \(names.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return try await tool.call(arguments, in: self, secrets: secrets)
    }

    private func checkNames() throws(EndpointError) {
        var seen: Set<String> = []
        for tool in tools where !seen.insert(tool.name).inserted {
            throw EndpointError(
                kind: .schemaUnavailable, route: tool.typeName,
                reason: "two endpoints are both named \"\(tool.name)\" as tools; offer only one of them")
        }
    }
}
