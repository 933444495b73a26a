import EndpointKit
import EndpointKitContract
import EndpointKitTools
import Foundation

/// Endpoints offered to any Model Context Protocol client (Claude Desktop, an IDE agent) as tools:
/// the JSON-RPC 2.0 messages of MCP, over standard input and output or any transport of yours.
///
/// ```swift
/// let tools = EndpointTools([CheerHistory.self, PurchaseCheer.self], on: .reiterate)
/// try await MCPServer(name: "reiterate", version: "1.0", tools: tools).run()   // stdio, until the client closes it
/// ```
///
/// It speaks the current revision, 2026-07-28, and the earlier ones, request by request: a request
/// whose `_meta` names its protocol version (`io.modelcontextprotocol/protocolVersion`) is served
/// statelessly by that revision's rules; any other by the rules of the version its client agreed in
/// `initialize`, as before.
///
/// What it answers:
/// - `server/discover` (2026-07-28): the supported versions, the `tools` capability, the
///   instructions, with `ttlMs` and `cacheScope`. A version it does not speak is
///   `UnsupportedProtocolVersionError` (`-32022`) naming the ones it does; a 2026-07-28 request
///   without its version or client capabilities in `_meta` is `-32602`. Every 2026-07-28 result
///   carries `resultType` and the server's name and version in `_meta`.
/// - `initialize` (2025-11-25 and earlier): the protocol version (the client's when it is one of
///   ``supportedVersions``, else the newest it negotiates so), the `tools` capability, the
///   server's name and version; `ping`; `notifications/initialized`, which needs no answer.
/// - `tools/list`: the endpoints' `.mcp` definitions, with an `outputSchema` for every payload that
///   has a structured form (an object as it is, anything else under `result`), `pageSize` at a
///   time with a `nextCursor`.
/// - `tools/call`: the payload as `text` content, plus `structuredContent` as the `outputSchema`
///   says (secrets redacted); a payload cut at the size limit is an error result instead. Bad
///   arguments (a key given twice included) and failed calls are results with `isError: true`
///   whose text tells the model what to fix; an unknown tool is a JSON-RPC error.
/// - A batch (a JSON array of requests) from a client of protocol version 2025-03-26, the only one
///   that has them, is answered as one array, in order, without replies to its notifications; from
///   any other, or with a tool call the caller's scopes do not allow, none of it runs.
/// - `notifications/cancelled` cancels the named call: no answer is sent for it, and nothing more
///   goes to the API once EndpointKit sees the cancellation.
/// - An unknown method, a message that is not JSON or not UTF-8, or not a JSON-RPC 2.0 request
///   (an id that is not a string or an integer, a key twice in any object but a tool's arguments),
///   gets the JSON-RPC error for it (`-32601`, `-32700`, `-32600`).
///
/// A call that is not read-only is confirmed before anything is sent (``Confirmation``): by the
/// app's own `EndpointTools` confirmation closure when it gave one; else, when a 2026-07-28 client
/// can ask its user (form elicitation), by the user, with an `InputRequiredResult` whose signed
/// `requestState` the retried call must bring back; else by the configuration's rule. Over HTTP,
/// ``Authorization`` makes the server an OAuth resource server: a bearer token is turned into a
/// ``Principal`` by the app, and never reaches the API the tools call; every tool call, whatever
/// message carried it, is checked against the principal's scopes before anything is sent.
public actor MCPServer {
    /// The protocol versions this server speaks, newest first.
    public static let supportedVersions = revisions.map(\.version)

    let name: String
    let version: String
    let tools: EndpointTools
    let instructions: String?
    let pageSize: Int
    let allowedOrigins: [String]
    let authorization: Authorization?
    let confirmation: Confirmation
    /// The confirmations already used to send a call, until they expire: each is good once.
    var spentConfirmations: [String: Date] = [:]
    /// The tools' definitions, made on the first `tools/list`.
    private var definitions: Result<[JSONValue], any Error>?
    private var running: [JSONValue: Task<ToolResult?, Never>] = [:]
    private var cancelled: Set<JSONValue> = []
    /// The messages read by ``run(input:output:)`` that are still being answered, by line number.
    var lineTasks: [UInt64: Task<Void, Never>] = [:]
    /// The protocol version the local client (standard input and output) agreed in `initialize`.
    var agreedVersion: String?
    var nextLine: UInt64 = 0

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
    ///   - allowedOrigins: The web origins whose pages may call the server over HTTP
    ///     (``handle(_:)->MCPServer.HTTPResponse``): exact origins such as `https://app.example`, or
    ///     with `*` for the port, such as `http://localhost:*`. Pages served from this machine by default.
    ///   - authorization: Over HTTP, who may call, and with which scopes; `nil` (the default) for a
    ///     server every client reaches, which then sends no write for an anonymous caller unless
    ///     `confirmation` allows it.
    ///   - confirmation: How a call that is not read-only is confirmed before it is sent.
    public init(name: String, version: String, tools: EndpointTools, instructions: String? = nil, pageSize: Int = 100,
                allowedOrigins: [String] = MCPServer.loopbackOrigins, authorization: Authorization? = nil,
                confirmation: Confirmation = Confirmation()) {
        self.allowedOrigins = allowedOrigins
        self.authorization = authorization
        self.confirmation = confirmation
        self.name = name
        self.version = version
        self.tools = tools
        self.instructions = instructions
        self.pageSize = max(1, pageSize)
    }

    // MARK: - One message

    /// Answers one JSON-RPC message: the reply to send back, or `nil` for a notification and for
    /// a call the client cancelled. The transport-agnostic core: ``run()`` uses it for standard
    /// input and output, and ``handle(_:)->MCPServer.HTTPResponse`` for Streamable HTTP, after
    /// that transport's checks. Use it for a transport of your own (a WebSocket, a test).
    ///
    /// ```swift
    /// let reply = await mcp.handle(Data(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8))
    /// // {"jsonrpc":"2.0","id":1,"result":{}}
    /// ```
    ///
    /// Requests are answered concurrently: a long `tools/call` does not hold up a `ping`, and a
    /// `notifications/cancelled` reaches the call it names.
    public func handle(_ message: Data) async -> Data? {
        await handle(message, caller: .local).body
    }

    /// Answers one JSON-RPC message from a caller your own transport authenticated (a WebSocket
    /// that checked a token, say), as an HTTP caller with that principal is answered: a tool call
    /// needs its ``Authorization/requiredScopes``, and a refused one is a `-32600` error, nothing
    /// sent. Batches are refused: no version was agreed with such a caller.
    ///
    /// ```swift
    /// let reply = await mcp.handle(message, from: MCPServer.Principal(id: "ann", scopes: ["notes:read"]))
    /// ```
    public func handle(_ message: Data, from principal: Principal) async -> Data? {
        await handle(message, caller: Caller(channel: .http, principal: principal)).body
    }

    /// One message from `caller`: the reply, and the HTTP status it goes with.
    func handle(_ message: Data, caller: Caller) async -> Reply {
        do throws(Unparsable) {
            return await respond(to: try MCPServer.parse(message), caller: caller)
        } catch {
            return Reply(error.reply)
        }
    }

    /// A message that is not JSON, or not UTF-8: the JSON-RPC parse error to answer it with.
    struct Unparsable: Error {
        let reply: Data
    }

    /// `message` as JSON, duplicated keys kept: they are refused where they are, a tool's
    /// arguments with an error result under the request's id, the rest with a JSON-RPC error.
    static func parse(_ message: Data) throws(Unparsable) -> JSONValue {
        // Refused, never repaired: a replacement character would reach the API as the user's data.
        let text = String(decoding: message, as: UTF8.self)
        guard text.utf8.elementsEqual(message) else {
            throw Unparsable(reply: MCPServer.reply(id: .null, error: -32700, "Parse error: the message is not valid UTF-8"))
        }
        do throws(JSONParser.Failure) {
            return try JSONParser.parse(text, maximumDepth: 128, refusesDuplicateKeys: false)
        } catch {
            throw Unparsable(reply: MCPServer.reply(id: .null, error: -32700, "Parse error: \(error.message)"))
        }
    }

    /// The reply to a parsed message: one request or notification, or a batch.
    func respond(to value: JSONValue, caller: Caller) async -> Reply {
        guard case .array(let batch) = value else { return await answer(value, caller: caller) }
        guard !batch.isEmpty else { return Reply(MCPServer.reply(id: .null, error: -32600, "Invalid Request: the batch is empty")) }
        if let refusal = refusal(ofBatch: batch, caller: caller) { return refusal }
        // A JSON-RPC batch (protocol version 2025-03-26): each request answered, concurrently, the
        // replies in one array in the order of the requests; nothing at all for only notifications.
        let replies = await withTaskGroup(of: (Int, Data?).self) { group in
            for (position, element) in batch.enumerated() {
                group.addTask { (position, await self.answer(element, caller: caller).body) }
            }
            var replies = [Data?](repeating: nil, count: batch.count)
            for await (position, reply) in group { replies[position] = reply }
            return replies.compactMap { $0 }
        }
        guard !replies.isEmpty else { return Reply(nil) }
        return Reply(Data("[".utf8) + Data(replies.joined(separator: Data(",".utf8))) + Data("]".utf8))
    }

    /// Why none of `batch` runs, if it does not: a batch of a revision that has none, or a tool
    /// call in it that the caller's scopes do not allow; checked before any element runs, so that
    /// a batch is run whole or not at all.
    private func refusal(ofBatch batch: [JSONValue], caller: Caller) -> Reply? {
        let version = caller.channel == .local ? agreedVersion : caller.protocolVersion
        let named = batch.lazy.compactMap { element in
            element["method"]?.stringValue.flatMap { self.statelessVersion(method: $0, params: element["params"] ?? .object([:])) }
        }.first
        guard MCPServer.revision(version)?.allowsBatches == true, named == nil else {
            let speaking = named.map { $0.isEmpty ? "server/discover (2026-07-28)" : $0 } ?? version.map { "version \($0)" } ?? "a client that agreed no version in initialize"
            let batching = MCPServer.revisions.filter(\.allowsBatches).map(\.version).joined(separator: ", ")
            return Reply(MCPServer.reply(id: .null, error: -32600,
                "Invalid Request: JSON-RPC batches belong to protocol version \(batching) only, and \(speaking) sends one message at a time; nothing in the batch was run"), status: 400)
        }
        let refusals = batch.compactMap { element -> ScopeRefusal? in
            guard element["method"]?.stringValue == "tools/call", let tool = element["params"]?["name"]?.stringValue else { return nil }
            return scopeRefusal(calling: tool, caller: caller)
        }
        return refusals.isEmpty ? nil : reply(refusing: refusals, id: .null)
    }

    /// The reply to one JSON-RPC message (not a batch).
    private func answer(_ value: JSONValue, caller: Caller) async -> Reply {
        guard value["jsonrpc"]?.stringValue == "2.0", let method = value["method"]?.stringValue else {
            // A client's reply to a server request (this server sends none) needs nothing back.
            if value["jsonrpc"]?.stringValue == "2.0", value["method"] == nil, value["result"] != nil || value["error"] != nil { return Reply(nil) }
            return Reply(MCPServer.reply(id: MCPServer.validID(value["id"]) ?? .null, error: -32600, "Invalid Request: expected a JSON-RPC 2.0 object with a \"method\""))
        }
        if let key = MCPServer.duplicatedKey(in: value, skippingArguments: true) {
            return Reply(MCPServer.reply(id: MCPServer.validID(value["id"]) ?? .null, error: -32600, "Invalid Request: the key \"\(key)\" appears twice"))
        }
        let params = value["params"] ?? .object([:])
        guard let id = value["id"] else {
            notice(method, params: params)
            return Reply(nil)
        }
        guard MCPServer.validID(id) != nil else {
            // MCP: an id is a string or an integer, never null.
            return Reply(MCPServer.reply(id: .null, error: -32600, "Invalid Request: the id \(id.jsonText()) is not a string or an integer"))
        }
        if let version = statelessVersion(method: method, params: params) {
            return await answerStateless(id: id, method: method, params: params, version: version, caller: caller)
        }
        let revision = ClientRevision(
            rules: MCPServer.sessionRevision(caller.channel == .local ? agreedVersion : caller.protocolVersion), capabilities: .object([:]))
        switch method {
        case "initialize":
            let result = initialized(params)
            // Standard input and output is one client: what it agreed decides whether it batches.
            if caller.channel == .local { agreedVersion = result["protocolVersion"]?.stringValue }
            return Reply(MCPServer.reply(id: id, result: result))
        case "ping": return Reply(MCPServer.reply(id: id, result: .object([:])))
        case "tools/list": return Reply(list(id: id, params: params, revision: revision))
        case "tools/call": return await call(id: id, params: params, revision: revision, caller: caller)
        default: return Reply(MCPServer.reply(id: id, error: -32601, "Method not found: \(method)"))
        }
    }

    /// `id` when it is one MCP allows: a string, or a number without a fraction or exponent.
    static func validID(_ id: JSONValue?) -> JSONValue? {
        switch id {
        case .string?: return id
        case .number(let text)?: return text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") } ? id : nil
        default: return nil
        }
    }

    /// The first key that appears twice in one object of `value`, at any depth; with
    /// `skippingArguments`, a tool call's `params.arguments` is left for the tool to refuse.
    static func duplicatedKey(in value: JSONValue, skippingArguments: Bool = false) -> String? {
        switch value {
        case .object(let members):
            var seen: Set<String> = []
            for member in members where !seen.insert(member.key).inserted { return member.key }
            for member in members {
                if skippingArguments, member.key == "params", case .object(let params) = member.value {
                    var names: Set<String> = []
                    for inner in params where !names.insert(inner.key).inserted { return inner.key }
                    for inner in params where inner.key != "arguments" {
                        if let key = duplicatedKey(in: inner.value) { return key }
                    }
                    continue
                }
                if let key = duplicatedKey(in: member.value) { return key }
            }
            return nil
        case .array(let elements):
            for element in elements {
                if let key = duplicatedKey(in: element) { return key }
            }
            return nil
        default:
            return nil
        }
    }

    private func initialized(_ params: JSONValue) -> JSONValue {
        let asked = params["protocolVersion"]?.stringValue ?? ""
        // `initialize` belongs to the revisions before 2026-07-28: a version it cannot agree gets
        // the newest of those, as before.
        let agreed = MCPServer.revisions.filter { !$0.isStateless }.map(\.version)
        var result = JSONValue.object([
            "protocolVersion": .string(agreed.contains(asked) ? asked : agreed[0]),
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

    func list(id: JSONValue, params: JSONValue, revision: ClientRevision) -> Data {
        let made = definitions ?? Result { try tools.definitions(for: .mcp).map(\.json.value) }
        definitions = made
        let all: [JSONValue]
        switch made {
        case .success(let values): all = revision.rules.unwrapsStructuredContent ? values.map(unwrappingOutputSchema) : values
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
        result = revision.rules.listed(result, server: serverInfo, cacheScope: authorization == nil ? "public" : "private")
        return MCPServer.reply(id: id, result: result)
    }

    func call(id: JSONValue, params: JSONValue, revision: ClientRevision, caller: Caller) async -> Reply {
        guard let tool = params["name"]?.stringValue else {
            return Reply(MCPServer.reply(id: id, error: -32602, "Invalid params: tools/call needs the tool's \"name\""))
        }
        guard tools.names.contains(tool) else {
            return Reply(MCPServer.reply(id: id, error: -32602, "Unknown tool: \(tool); the tools are \(tools.names.joined(separator: ", "))"))
        }
        if let refusal = scopeRefusal(calling: tool, caller: caller) {
            return reply(refusing: [refusal], id: id)
        }
        guard running[id] == nil else {
            return Reply(MCPServer.reply(id: id, error: -32600, "Invalid Request: the id \(id.jsonText()) is already in use by a running call"))
        }
        let arguments = params["arguments"] ?? .object([:])
        switch confirm(tool: tool, arguments: arguments, params: params, revision: revision, caller: caller) {
        case .send:
            break
        case .ask(let result), .refuse(let result):
            return Reply(MCPServer.reply(id: id, result: revision.rules.completed(result, server: serverInfo, type: result["resultType"]?.stringValue ?? "complete")))
        case .invalid(let code, let message):
            return Reply(MCPServer.reply(id: id, error: code, message))
        }
        let tools = self.tools
        // Arguments with a key twice go as text, whose strict parse refuses them with the field's
        // name: an error result the model can act on, under the request's id.
        let duplicated = MCPServer.duplicatedKey(in: arguments) != nil
        let principal = caller.principal
        let task = Task {
            // The principal reaches the app's middlewares (per-user upstream credentials); the
            // client's own token never does.
            await Principal.$current.withValue(principal) {
                duplicated
                    ? try? await tools.result(name: tool, arguments: arguments.jsonText())
                    : try? await tools.result(name: tool, arguments: arguments)
            }
        }
        running[id] = task
        // The caller's own cancellation (an HTTP request gone) cancels the call too.
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        running[id] = nil
        if cancelled.remove(id) != nil || Task.isCancelled { return Reply(nil) }
        guard let result else { return Reply(nil) }
        var content: [JSONValue] = [.object(["type": .string("text"), "text": .string(result.text)])]
        var isError = result.isError
        if result.structuredWithheld {
            // The tool declares an `outputSchema`, so MCP asks for structured content that fits it;
            // a payload cut at the size limit has none. An error result, which clients do not check
            // against the schema, carries the cut text and says what to do.
            isError = true
            content.append(.object(["type": .string("text"), "text": .string(
                "The answer was cut at this server's result size limit (\(tools.maximumResultSize) bytes), so it has no structured form. Ask for less: a smaller page, or a narrower query.")]))
        }
        var answer = JSONValue.object(["content": .array(content), "isError": .bool(isError)])
        if let structured = result.structured, !isError {
            // 2026-07-28 takes any JSON value: a list is structured content as it is, as its
            // outputSchema says; earlier revisions take an object, so it stays under "result".
            answer["structuredContent"] = revision.rules.unwrapsStructuredContent && tools.wrapsStructuredResult(of: tool) == true
                ? structured[Self.wrappedResultKey] ?? structured : structured
        }
        answer = revision.rules.completed(answer, server: serverInfo, type: "complete")
        return Reply(MCPServer.reply(id: id, result: answer))
    }

    /// The member a list or other non-object payload sits under in earlier revisions' structured
    /// content (EndpointKitTools' choice).
    static let wrappedResultKey = "result"

    /// The server's name and version, as `serverInfo` says them.
    var serverInfo: JSONValue { .object(["name": .string(name), "version": .string(version)]) }

    // MARK: - Replies

    static func reply(id: JSONValue, result: JSONValue) -> Data {
        Data(JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": result]).jsonText().utf8)
    }

    static func reply(id: JSONValue, error code: Int, _ message: String, data: JSONValue? = nil) -> Data {
        var error = JSONValue.object(["code": .integer(code), "message": .string(message)])
        if let data { error["data"] = data }
        return Data(JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "error": error]).jsonText().utf8)
    }
}
