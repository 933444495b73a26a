import EndpointKit
import EndpointKitContract
import EndpointKitTools
import Foundation

/// Endpoints offered to any Model Context Protocol client (Claude Desktop, an IDE agent) as tools:
/// the JSON-RPC 2.0 lifecycle of MCP, over standard input and output or any transport of yours.
///
/// ```swift
/// let tools = EndpointTools([CheerHistory.self, PurchaseCheer.self], on: .reiterate)
/// try await MCPServer(name: "reiterate", version: "1.0", tools: tools).run()   // stdio, until the client closes it
/// ```
///
/// What it answers:
/// - `initialize`: the protocol version (the client's when it is one of ``supportedVersions``,
///   else the newest), the `tools` capability, the server's name and version; `ping`;
///   `notifications/initialized`, which needs no answer.
/// - `tools/list`: the endpoints' `.mcp` definitions, with an `outputSchema` when the payload is an
///   object, `pageSize` at a time with a `nextCursor`.
/// - `tools/call`: the payload as `text` content, plus `structuredContent` when it is an object
///   (secrets redacted, not cut short). Bad arguments and failed calls are results with
///   `isError: true` whose text tells the model what to fix; an unknown tool is a JSON-RPC error.
/// - `notifications/cancelled` cancels the named call: no answer is sent for it, and nothing more
///   goes to the API once EndpointKit sees the cancellation.
/// - An unknown method, a message that is not JSON, or not a JSON-RPC 2.0 request, gets the
///   JSON-RPC error for it (`-32601`, `-32700`, `-32600`).
///
/// Calls that are not read-only are confirmed by the app's `EndpointTools` confirmation closure,
/// not by MCP's elicitation: MCP clients already ask their user before a tool call, and the tool
/// annotations (`readOnlyHint`, `destructiveHint`) tell them which calls change something.
public actor MCPServer {
    /// The protocol versions this server speaks, newest first.
    public static let supportedVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    let name: String
    let version: String
    let tools: EndpointTools
    let instructions: String?
    let pageSize: Int
    /// The tools' definitions, made on the first `tools/list`.
    private var definitions: Result<[JSONValue], any Error>?
    private var running: [JSONValue: Task<ToolResult?, Never>] = [:]
    private var cancelled: Set<JSONValue> = []

    /// A server named `name` (the `serverInfo` clients show) offering `tools`.
    ///
    /// ```swift
    /// let server = MCPServer(name: "reiterate", version: "1.0", tools: tools, instructions: "Cheers of the Reiterate app.")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The server's name, which clients show.
    ///   - version: The server's version, which clients show.
    ///   - tools: The endpoints offered, with their server, result size limit and confirmation.
    ///   - instructions: Text a client may give the model about the whole server.
    ///   - pageSize: How many tools `tools/list` returns at a time (at least 1).
    public init(name: String, version: String, tools: EndpointTools, instructions: String? = nil, pageSize: Int = 100) {
        self.name = name
        self.version = version
        self.tools = tools
        self.instructions = instructions
        self.pageSize = max(1, pageSize)
    }

    // MARK: - One message

    /// Answers one JSON-RPC message: the reply to send back, or `nil` for a notification and for
    /// a call the client cancelled. The transport-agnostic core: ``run()`` uses it for standard
    /// input and output, and an HTTP server uses it for Streamable HTTP (reply with the data as
    /// `application/json`, or `202 Accepted` with no body for `nil`).
    ///
    /// ```swift
    /// router.post("mcp") { request, context in
    ///     let body = try await request.body.collect(upTo: 1 << 20)
    ///     guard let reply = await mcp.handle(Data(buffer: body)) else { return Response(status: .accepted) }
    ///     return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply)))
    /// }
    /// ```
    ///
    /// Requests are answered concurrently: a long `tools/call` does not hold up a `ping`, and a
    /// `notifications/cancelled` reaches the call it names.
    public func handle(_ message: Data) async -> Data? {
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(String(decoding: message, as: UTF8.self), maximumDepth: 128)
        } catch {
            return MCPServer.reply(id: .null, error: -32700, "Parse error: \(error.message)")
        }
        guard value["jsonrpc"]?.stringValue == "2.0", let method = value["method"]?.stringValue else {
            // A client's reply to a server request (this server sends none) needs nothing back.
            if value["jsonrpc"]?.stringValue == "2.0", value["method"] == nil, value["result"] != nil || value["error"] != nil { return nil }
            return MCPServer.reply(id: value["id"] ?? .null, error: -32600, "Invalid Request: expected a JSON-RPC 2.0 object with a \"method\"")
        }
        let params = value["params"] ?? .object([:])
        guard let id = value["id"] else {
            notice(method, params: params)
            return nil
        }
        switch method {
        case "initialize": return MCPServer.reply(id: id, result: initialized(params))
        case "ping": return MCPServer.reply(id: id, result: .object([:]))
        case "tools/list": return list(id: id, params: params)
        case "tools/call": return await call(id: id, params: params)
        default: return MCPServer.reply(id: id, error: -32601, "Method not found: \(method)")
        }
    }

    private func initialized(_ params: JSONValue) -> JSONValue {
        let asked = params["protocolVersion"]?.stringValue ?? ""
        var result = JSONValue.object([
            "protocolVersion": .string(MCPServer.supportedVersions.contains(asked) ? asked : MCPServer.supportedVersions[0]),
            "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
            "serverInfo": .object(["name": .string(name), "version": .string(version)]),
        ])
        if let instructions { result["instructions"] = .string(instructions) }
        return result
    }

    private func notice(_ method: String, params: JSONValue) {
        guard method == "notifications/cancelled", let id = params["requestId"], let task = running[id] else { return }
        cancelled.insert(id)
        task.cancel()
    }

    private func list(id: JSONValue, params: JSONValue) -> Data {
        let made = definitions ?? Result { try tools.definitions(for: .mcp).map(\.json.value) }
        definitions = made
        let all: [JSONValue]
        switch made {
        case .success(let values): all = values
        case .failure(let error):
            let reason = (error as? EndpointError)?.reason ?? "\(error)"
            return MCPServer.reply(id: id, error: -32603, "Internal error: a tool has no definition: \(reason)")
        }
        var start = 0
        if let cursor = params["cursor"] {
            guard let text = cursor.stringValue, let offset = Int(text), offset > 0, offset < all.count else {
                return MCPServer.reply(id: id, error: -32602, "Invalid params: the cursor \(cursor.jsonText()) is not one this server gave")
            }
            start = offset
        }
        let end = min(start + pageSize, all.count)
        var result = JSONValue.object(["tools": .array(Array(all[start..<end]))])
        if end < all.count { result["nextCursor"] = .string(String(end)) }
        return MCPServer.reply(id: id, result: result)
    }

    private func call(id: JSONValue, params: JSONValue) async -> Data? {
        guard let tool = params["name"]?.stringValue else {
            return MCPServer.reply(id: id, error: -32602, "Invalid params: tools/call needs the tool's \"name\"")
        }
        guard tools.names.contains(tool) else {
            return MCPServer.reply(id: id, error: -32602, "Unknown tool: \(tool); the tools are \(tools.names.joined(separator: ", "))")
        }
        guard running[id] == nil else {
            return MCPServer.reply(id: id, error: -32600, "Invalid Request: the id \(id.jsonText()) is already in use by a running call")
        }
        let arguments = params["arguments"] ?? .object([:])
        let tools = self.tools
        let task = Task { try? await tools.result(name: tool, arguments: arguments) }
        running[id] = task
        // The caller's own cancellation (an HTTP request gone) cancels the call too.
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        running[id] = nil
        if cancelled.remove(id) != nil || Task.isCancelled { return nil }
        guard let result else { return nil }
        var answer = JSONValue.object([
            "content": .array([.object(["type": .string("text"), "text": .string(result.text)])]),
            "isError": .bool(result.isError),
        ])
        if let structured = result.structured { answer["structuredContent"] = structured }
        return MCPServer.reply(id: id, result: answer)
    }

    // MARK: - Replies

    static func reply(id: JSONValue, result: JSONValue) -> Data {
        Data(JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": result]).jsonText().utf8)
    }

    static func reply(id: JSONValue, error code: Int, _ message: String) -> Data {
        let error = JSONValue.object(["code": .integer(code), "message": .string(message)])
        return Data(JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "error": error]).jsonText().utf8)
    }
}
