import EndpointKit
import Foundation

extension MCPServer {
    /// The reply to a message and the HTTP status it goes with over Streamable HTTP: 200, or 400
    /// and 404 where revision 2026-07-28 asks for them. Standard input and output send the body alone.
    struct Reply: Sendable {
        var body: Data?
        var status: Int
        /// Header fields to send with it over HTTP, such as a `403`'s `WWW-Authenticate`.
        var headers: [(name: String, value: String)] = []

        init(_ body: Data?, status: Int = 200) {
            self.body = body
            self.status = status
        }
    }

    /// Who sent a message, as far as its transport knows: the process's own user (standard input
    /// and output, or ``handle(_:)->Data?``), or a remote client (Streamable HTTP, or a transport
    /// of the app's own through ``handle(_:from:)``) with the principal its token named.
    struct Caller: Sendable {
        enum Channel: Sendable { case local, http }
        var channel: Channel
        var principal: Principal?
        /// The protocol version the transport says the client speaks (over HTTP its
        /// `MCP-Protocol-Version`, 2025-03-26 without one); `nil` for the one it agreed in
        /// `initialize`.
        var protocolVersion: String?

        static let local = Caller(channel: .local, principal: nil)

        /// Known to the server: the local user, or an authenticated HTTP client.
        var isIdentified: Bool { channel == .local || principal != nil }

        /// What a confirmation is bound to, so that no other caller can use it.
        var binding: String {
            if let principal { return "principal:" + principal.id }
            return channel == .local ? "local" : "anonymous"
        }
    }

    /// A stateless revision (2026-07-28) a request names in its `_meta`.
    struct Revision: Sendable {
        let version: String
        let capabilities: JSONValue

        /// 2026-07-28 allows any JSON value as structured content and any schema as `outputSchema`.
        var unwrapsStructuredContent: Bool { true }

        /// Whether the client can show its user a form (`elicitation` with `form`, or empty, which
        /// means form).
        var canAskUser: Bool {
            guard let elicitation = capabilities["elicitation"], case .object(let modes) = elicitation else { return false }
            return modes.isEmpty || modes.contains { $0.key == "form" }
        }

        /// `result` with what every 2026-07-28 result carries: `resultType` and the server's
        /// name and version in `_meta`.
        func completed(_ result: JSONValue, server: JSONValue, type: String = "complete") -> JSONValue {
            var result = result
            if result["resultType"] == nil { result["resultType"] = .string(type) }
            var meta = result["_meta"] ?? .object([:])
            meta[MCPServer.serverInfoKey] = server
            result["_meta"] = meta
            return result
        }
    }

    static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    static let clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    /// The version a request asks for statelessly: the one in its `_meta`, unless that is a
    /// version of the `initialize` era (served as before); `""` for `server/discover` without one.
    /// `nil` for a request of the earlier revisions.
    func statelessVersion(method: String, params: JSONValue) -> String? {
        let asked = params["_meta"]?[MCPServer.protocolVersionKey]
        guard let asked else { return method == "server/discover" ? "" : nil }
        guard let version = asked.stringValue else { return asked.jsonText() }
        if MCPServer.supportedVersions.contains(version), !MCPServer.statelessVersions.contains(version) { return nil }
        return version
    }

    /// A request of revision 2026-07-28 (or one naming a version this server does not speak).
    func answerStateless(id: JSONValue, method: String, params: JSONValue, version: String, caller: Caller) async -> Reply {
        guard !version.isEmpty else {
            return Reply(MCPServer.reply(id: id, error: -32602, "Invalid params: \(method) needs the request's protocol version in _meta[\"\(MCPServer.protocolVersionKey)\"]"), status: 400)
        }
        guard MCPServer.statelessVersions.contains(version) else {
            let data = JSONValue.object(["supported": .array(MCPServer.supportedVersions.map(JSONValue.string)), "requested": .string(version)])
            return Reply(MCPServer.reply(id: id, error: -32022, "Unsupported protocol version: \(version); this server speaks \(MCPServer.supportedVersions.joined(separator: ", "))", data: data), status: 400)
        }
        guard let capabilities = params["_meta"]?[MCPServer.clientCapabilitiesKey], case .object = capabilities else {
            return Reply(MCPServer.reply(id: id, error: -32602, "Invalid params: a \(version) request needs the client's capabilities in _meta[\"\(MCPServer.clientCapabilitiesKey)\"], an object"), status: 400)
        }
        let revision = Revision(version: version, capabilities: capabilities)
        switch method {
        case "server/discover":
            var result = JSONValue.object([
                "supportedVersions": .array(MCPServer.supportedVersions.map(JSONValue.string)),
                "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
            ])
            if let instructions { result["instructions"] = .string(instructions) }
            result["ttlMs"] = .integer(3_600_000)
            result["cacheScope"] = .string("public")
            return Reply(MCPServer.reply(id: id, result: revision.completed(result, server: serverInfo)))
        case "tools/list":
            return Reply(list(id: id, params: params, revision: revision))
        case "tools/call":
            return await call(id: id, params: params, revision: revision, caller: caller)
        default:
            // `initialize` and `ping` are not methods of 2026-07-28.
            return Reply(MCPServer.reply(id: id, error: -32601, "Method not found: \(method) is not a method of protocol version \(version)"), status: 404)
        }
    }

    /// A tool definition as 2026-07-28 has it: a payload that is not an object is described as it
    /// is, not wrapped under `result`.
    func unwrappingOutputSchema(_ definition: JSONValue) -> JSONValue {
        guard let name = definition["name"]?.stringValue, tools.wrapsStructuredResult(of: name) == true,
              let schema = definition["outputSchema"], var payload = schema["properties"]?[MCPServer.wrappedResultKey] else { return definition }
        if let definitions = schema["$defs"] { payload["$defs"] = definitions }
        var definition = definition
        definition["outputSchema"] = payload
        return definition
    }
}
