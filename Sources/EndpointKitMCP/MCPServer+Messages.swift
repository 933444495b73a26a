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

    static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    static let clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
}
