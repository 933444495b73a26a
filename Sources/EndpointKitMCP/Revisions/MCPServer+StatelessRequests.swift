import EndpointKit
import Foundation

extension MCPServer {
    /// The version a request asks for statelessly: the one in its `_meta`, unless that is a
    /// version of the `initialize` era (served as before); `""` for `server/discover` without one.
    /// `nil` for a request of the earlier revisions.
    func statelessVersion(method: String, params: JSONValue) -> String? {
        let asked = params["_meta"]?[MCPServer.protocolVersionKey]
        guard let asked else { return method == "server/discover" ? "" : nil }
        guard let version = asked.stringValue else { return asked.jsonText() }
        if let revision = MCPServer.revision(version), !revision.isStateless { return nil }
        return version
    }

    /// A request of revision 2026-07-28 (or one naming a version this server does not speak).
    func answerStateless(id: JSONValue, method: String, params: JSONValue, version: String, caller: Caller) async -> Reply {
        guard !version.isEmpty else {
            return Reply(MCPServer.reply(id: id, error: -32602, "Invalid params: \(method) needs the request's protocol version in _meta[\"\(MCPServer.protocolVersionKey)\"]"), status: 400)
        }
        guard let rules = MCPServer.revision(version), rules.isStateless else {
            let data = JSONValue.object(["supported": .array(MCPServer.supportedVersions.map(JSONValue.string)), "requested": .string(version)])
            return Reply(MCPServer.reply(id: id, error: -32022, "Unsupported protocol version: \(version); this server speaks \(MCPServer.supportedVersions.joined(separator: ", "))", data: data), status: 400)
        }
        guard let capabilities = params["_meta"]?[MCPServer.clientCapabilitiesKey], case .object = capabilities else {
            return Reply(MCPServer.reply(id: id, error: -32602, "Invalid params: a \(version) request needs the client's capabilities in _meta[\"\(MCPServer.clientCapabilitiesKey)\"], an object"), status: 400)
        }
        let revision = ClientRevision(rules: rules, capabilities: capabilities)
        switch method {
        case "server/discover" where rules.lifecycleMethods.contains(method):
            var result = JSONValue.object([
                "supportedVersions": .array(MCPServer.supportedVersions.map(JSONValue.string)),
                "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
            ])
            if let instructions { result["instructions"] = .string(instructions) }
            result["ttlMs"] = .integer(3_600_000)
            result["cacheScope"] = .string("public")
            return Reply(MCPServer.reply(id: id, result: rules.completed(result, server: serverInfo, type: "complete")))
        case "tools/list":
            return Reply(list(id: id, params: params, revision: revision))
        case "tools/call":
            return await call(id: id, params: params, revision: revision, caller: caller)
        default:
            // `initialize` and `ping` are not methods of this revision.
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
