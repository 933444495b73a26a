import EndpointKit
import EndpointKitMCP
import EndpointKitTools
import Foundation

/// The demo endpoints a model may call over MCP: a purchase (confirmed by the user before it is
/// sent: see `MCPServer.Confirmation`), the cheer history and GitHub-style branches.
func demoTools(on origin: URL) -> EndpointTools {
    EndpointTools([PurchaseCheer.self, CheerHistory.self, ListBranches.self], on: APIServer(origin: origin, transport: demoTransport, errorPayloadType: DemoError.self))
}

/// The MCP server of `Demo --mcp-http`, set once the HTTP server knows its own origin.
actor MCPSlot {
    private(set) var server: MCPServer?
    private(set) var authorization: MCPServer.Authorization?

    func set(_ server: MCPServer, authorization: MCPServer.Authorization?) {
        self.server = server
        self.authorization = authorization
    }

    /// The Protected Resource Metadata document, when the server has authorization.
    func metadata() -> MCPServer.HTTPResponse? {
        authorization?.metadataResponse()
    }

    /// The server's answer to `request`; 503 before the server is set.
    func handle(_ request: MCPServer.HTTPRequest) async -> MCPServer.HTTPResponse {
        guard let server else { return MCPServer.HTTPResponse(status: 503, headers: [], body: Data()) }
        return await server.handle(request)
    }
}

/// The demo's stand-in for an authorization server: two access tokens and what they grant. A real
/// server checks a token it did not issue itself (a JWT's signature, issuer, audience and expiry,
/// or its authorization server's introspection endpoint).
let demoPrincipals: [String: MCPServer.Principal] = [
    "demo-buyer": MCPServer.Principal(id: "buyer", scopes: ["cheers:read", "cheers:write"]),
    "demo-reader": MCPServer.Principal(id: "reader", scopes: ["cheers:read"]),
]

/// `/mcp` of `Demo --mcp-http` as an OAuth resource server: a bearer token from `demoPrincipals`,
/// `cheers:read` asked for first, and the scope `cheers:write` to buy a cheer (asked for when a
/// purchase needs it: step-up). `cheers:admin` implies `cheers:write`.
func demoAuthorization(on origin: URL) -> MCPServer.Authorization {
    MCPServer.Authorization(
        resource: origin.appendingPathComponent("mcp"),
        authorizationServers: [origin.appendingPathComponent("auth")],
        scopesSupported: ["cheers:read"],
        requiredScopes: ["purchase_cheer": ["cheers:write"]],
        impliedScopes: { $0 == "cheers:admin" ? ["cheers:write"] : [] }
    ) { token in demoPrincipals[token] }
}

/// The same resource server with a real authorization server at `issuer` (`Demo --mcp-http
/// --authorization-server URL`): each token is checked by that server's introspection endpoint
/// (RFC 7662), and accepted only when it is active and issued for this resource.
func introspectingAuthorization(on origin: URL, issuer: URL) -> MCPServer.Authorization {
    let resource = origin.appendingPathComponent("mcp")
    let authorizationServer = APIServer(origin: issuer, pathPrefix: "", transport: demoTransport)
    return MCPServer.Authorization(
        resource: resource, authorizationServers: [issuer],
        scopesSupported: ["cheers:read"],
        requiredScopes: ["purchase_cheer": ["cheers:write"]]
    ) { token in
        guard let answer = try? await IntrospectToken(token: token).call(on: authorizationServer),
              answer.active, answer.aud == resource.absoluteString, let subject = answer.sub else { return nil }
        return MCPServer.Principal(id: subject, scopes: Set((answer.scope ?? "").split(separator: " ").map(String.init)))
    }
}

/// RFC 7662 token introspection: whether a token is active, whose it is, its scopes and audience.
struct IntrospectToken: Endpoint {
    var endpoint: Restful { Restful(.post, "introspect", body: .form) }   // token=…
    let token: String

    struct ReturnPayloadType: Decodable, Sendable {
        let active: Bool
        let sub: String?
        let scope: String?
        let aud: String?
    }
}
