import EndpointKit
import EndpointKitMCP
import EndpointKitTools
import Foundation

/// The demo endpoints a model may call over MCP: a purchase (confirmed by MCP clients, which ask
/// their user before a call that is not read-only), the cheer history and GitHub-style branches.
func demoTools(on origin: URL) -> EndpointTools {
    EndpointTools([PurchaseCheer.self, CheerHistory.self, ListBranches.self], on: APIServer(origin: origin, transport: demoTransport, errorPayloadType: DemoError.self))
}

/// The MCP server of `Demo --mcp-http`, set once the HTTP server knows its own origin.
actor MCPSlot {
    private(set) var server: MCPServer?

    func set(_ server: MCPServer) {
        self.server = server
    }

    /// The server's answer to `request`; 503 before the server is set.
    func handle(_ request: MCPServer.HTTPRequest) async -> MCPServer.HTTPResponse {
        guard let server else { return MCPServer.HTTPResponse(status: 503, headers: [], body: Data()) }
        return await server.handle(request)
    }
}
