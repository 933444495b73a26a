import EndpointKit
import Foundation

extension MCPServer {
    /// Over Streamable HTTP, the MCP server as an OAuth 2.1 resource server (MCP 2026-07-28,
    /// Authorization): every request brings `Authorization: Bearer <token>`, which the app turns
    /// into a ``Principal`` or refuses.
    ///
    /// ```swift
    /// let authorization = MCPServer.Authorization(
    ///     resource: URL(string: "https://mcp.reiterate.app/mcp")!,
    ///     authorizationServers: [URL(string: "https://auth.reiterate.app")!],
    ///     scopesSupported: ["cheers:read"],
    ///     requiredScopes: ["purchase_cheer": ["cheers:write"], "refund_cheer": ["cheers:write", "cheers:refund"]],
    ///     impliedScopes: { $0 == "cheers:admin" ? ["cheers:write", "cheers:refund"] : [] }
    /// ) { token in await sessions.principal(forAccessToken: token) }
    /// ```
    ///
    /// - A request without a bearer token, or with one the app refuses, is answered `401` with
    ///   `WWW-Authenticate: Bearer resource_metadata="…"` (and `error="invalid_token"` for a
    ///   refused one), where a client finds the authorization servers: serve
    ///   ``metadataResponse()`` at ``metadataPath``. The challenge names ``scopesSupported``, the
    ///   scopes a client asks for first.
    /// - A malformed `Authorization` field, or more than one, is answered `400` with
    ///   `error="invalid_request"` (RFC 6750 §3.1).
    /// - A call of a tool whose ``requiredScopes`` the principal lacks, whatever the message's
    ///   shape (one message, a batch, a confirmed retry), is answered `403` with
    ///   `error="insufficient_scope"` and every scope the call needs, so that the client asks for
    ///   more (step-up); nothing is sent.
    /// - The token stays here: the tool calls go out with the app's own middlewares and
    ///   credentials (MCP forbids passing a client's token through). ``Principal/current`` tells
    ///   them whose call it is.
    public struct Authorization: Sendable {
        /// The MCP endpoint's canonical URI, such as `https://mcp.example.com/mcp`: the `resource`
        /// tokens are issued for.
        public var resource: URL
        /// The authorization servers that issue tokens for it.
        public var authorizationServers: [URL]
        /// The scopes a client asks for first: `scopes_supported` in the metadata document and
        /// `scope` in every `401` challenge. Keep it to what reads need; a call that needs more is
        /// answered `403` naming it, and the client steps up. Empty by default.
        public var scopesSupported: Set<String>
        /// The scopes each tool needs, all of them, by tool name; tools not named need none beyond
        /// a valid token.
        public var requiredScopes: [String: Set<String>]
        /// The scopes a granted scope implies (a hierarchy such as `notes:admin` ⊃ `notes:write`),
        /// applied until nothing new follows; none by default.
        public var impliedScopes: @Sendable (_ scope: String) -> Set<String>
        let verify: @Sendable (String) async -> Principal?

        /// A resource server for `resource`.
        ///
        /// ```swift
        /// let authorization = MCPServer.Authorization(resource: endpoint, authorizationServers: [issuer]) { token in
        ///     token == expected ? MCPServer.Principal(id: "me") : nil
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - resource: The MCP endpoint's canonical URI.
        ///   - authorizationServers: The issuers of its tokens, listed in the metadata document.
        ///   - scopesSupported: The scopes a client asks for first, named in the metadata document
        ///     and the `401` challenges.
        ///   - requiredScopes: The scopes each tool needs, by tool name.
        ///   - impliedScopes: The scopes a granted scope implies.
        ///   - verify: The principal a bearer token stands for, or `nil` to refuse it (unknown,
        ///     expired, issued for another resource). Check the token's audience: MCP requires that
        ///     a server accept only tokens issued for it.
        public init(resource: URL, authorizationServers: [URL], scopesSupported: Set<String> = [],
                    requiredScopes: [String: Set<String>] = [:],
                    impliedScopes: @escaping @Sendable (_ scope: String) -> Set<String> = { _ in [] },
                    verify: @escaping @Sendable (_ token: String) async -> Principal?) {
            self.resource = resource
            self.authorizationServers = authorizationServers
            self.scopesSupported = scopesSupported
            self.requiredScopes = requiredScopes
            self.impliedScopes = impliedScopes
            self.verify = verify
        }

        /// Where the Protected Resource Metadata document is served (RFC 9728 §3.1): the resource's
        /// path after `/.well-known/oauth-protected-resource`, such as
        /// `/.well-known/oauth-protected-resource/mcp`.
        ///
        /// ```swift
        /// router.get(RouterPath(authorization.metadataPath)) { _, _ in authorization.metadataResponse() … }
        /// ```
        public var metadataPath: String {
            let path = resource.path
            return "/.well-known/oauth-protected-resource" + (path == "/" ? "" : path)
        }

        /// The metadata document's URL, as the `401` challenges name it.
        public var metadataURL: URL {
            var components = URLComponents(url: resource, resolvingAgainstBaseURL: false) ?? URLComponents()
            components.path = metadataPath
            components.query = nil
            components.fragment = nil
            return components.url ?? resource
        }

        /// The Protected Resource Metadata document (RFC 9728): the resource, its authorization
        /// servers, the scopes a client asks for first, and that tokens come in the
        /// `Authorization` header.
        ///
        /// ```swift
        /// let document = authorization.metadataResponse()   // 200, application/json
        /// ```
        public func metadataResponse() -> HTTPResponse {
            var document = JSONValue.object([
                "resource": .string(resource.absoluteString),
                "authorization_servers": .array(authorizationServers.map { .string($0.absoluteString) }),
                "bearer_methods_supported": .array([.string("header")]),
            ])
            if !scopesSupported.isEmpty { document["scopes_supported"] = .array(scopesSupported.sorted().map(JSONValue.string)) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600")],
                                body: Data(document.jsonText().utf8))
        }

        /// A `WWW-Authenticate` challenge (RFC 6750 §3) naming the metadata document; `scopes`
        /// in the `scope` parameter when there are any.
        func challenge(error: String? = nil, scopes: Set<String>) -> String {
            var parameters: [String] = []
            if let error { parameters.append("error=\"\(error)\"") }
            if !scopes.isEmpty { parameters.append("scope=\"\(scopes.sorted().joined(separator: " "))\"") }
            parameters.append("resource_metadata=\"\(metadataURL.absoluteString)\"")
            return "Bearer " + parameters.joined(separator: ", ")
        }
    }
}
