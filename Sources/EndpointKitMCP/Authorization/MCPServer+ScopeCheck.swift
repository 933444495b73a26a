import EndpointKit
import Foundation

extension MCPServer {
    /// A tool call the caller's scopes do not allow: what it needs and what is missing.
    struct ScopeRefusal: Sendable {
        var tool: String
        /// Every scope the tool needs (the `403` challenge names them all, as MCP asks).
        var required: Set<String>
        /// The ones the caller's token does not grant, even with the scopes it implies.
        var missing: Set<String>
    }

    /// The one authorization decision every tool call passes, whatever carried it (one message,
    /// a batch element, a confirmed retry, any revision, any transport): `nil` when `caller` may
    /// call `tool`. The local user (standard input and output, ``handle(_:)->Data?``) may call
    /// every tool; a caller with a principal needs the tool's ``Authorization/requiredScopes``;
    /// an HTTP caller without one, on a server with authorization, may call none.
    func scopeRefusal(calling tool: String, caller: Caller) -> ScopeRefusal? {
        guard let authorization, caller.channel != .local else { return nil }
        let required = authorization.requiredScopes[tool] ?? []
        guard let principal = caller.principal else {
            // Never reached through `handle(_: HTTPRequest)`, which answers 401 first: refused all
            // the same, so that a path added later cannot skip authentication.
            return ScopeRefusal(tool: tool, required: required, missing: required)
        }
        guard !required.isEmpty else { return nil }
        let missing = required.subtracting(authorization.granted(by: principal.scopes))
        return missing.isEmpty ? nil : ScopeRefusal(tool: tool, required: required, missing: missing)
    }

    /// The reply to calls refused for their scopes: a JSON-RPC error (`id` null for a batch),
    /// over HTTP `403 Forbidden` with `error="insufficient_scope"` and every scope they need.
    func reply(refusing refusals: [ScopeRefusal], id: JSONValue) -> Reply {
        let described = refusals.map { refusal in
            refusal.required.isEmpty ? "the tool \(refusal.tool) needs a caller with a valid token" :
            "the tool \(refusal.tool) needs the scope\(refusal.required.count == 1 ? "" : "s") \(refusal.required.sorted().joined(separator: " "))"
                + (refusal.missing == refusal.required ? "" : " (missing \(refusal.missing.sorted().joined(separator: " ")))")
        }
        let needed = refusals.reduce(into: Set<String>()) { $0.formUnion($1.required) }
        var reply = Reply(MCPServer.reply(id: id, error: -32600, "Forbidden: \(described.joined(separator: "; ")); nothing was sent"), status: 403)
        if let authorization {
            reply.headers.append(("WWW-Authenticate", authorization.challenge(error: "insufficient_scope", scopes: needed)))
        }
        return reply
    }
}

extension MCPServer.Authorization {
    /// The most scopes `granted(by:)` follows ``impliedScopes`` to: a function that keeps
    /// making new ones stops there.
    static let maximumImpliedScopes = 1_024

    /// `scopes` with every scope they imply, followed until nothing new comes.
    func granted(by scopes: Set<String>) -> Set<String> {
        var granted = scopes
        var pending = Array(scopes)
        while let scope = pending.popLast(), granted.count < Self.maximumImpliedScopes {
            for implied in impliedScopes(scope) where granted.insert(implied).inserted { pending.append(implied) }
        }
        return granted
    }
}
