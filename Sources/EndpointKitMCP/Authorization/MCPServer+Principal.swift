extension MCPServer {
    /// Who an HTTP caller is, as the app's ``Authorization`` said from its bearer token.
    ///
    /// During a tool call it is ``current``: read it where the app chooses the upstream API's
    /// credentials, so that each user's call goes out with that user's token. The MCP client's own
    /// token is never sent on.
    ///
    /// ```swift
    /// let upstream = HTTPBearerAuthorization { await vault.token(for: MCPServer.Principal.current?.id) }
    /// ```
    public struct Principal: Sendable, Hashable {
        /// A stable identifier of the user or client, such as the token's `sub`.
        public var id: String
        /// The scopes the token grants.
        public var scopes: Set<String>

        /// A principal.
        ///
        /// ```swift
        /// let principal = MCPServer.Principal(id: "user-42", scopes: ["cheers:read"])
        /// ```
        public init(id: String, scopes: Set<String> = []) {
            self.id = id
            self.scopes = scopes
        }

        /// The principal of the tool call this task serves, over HTTP with ``Authorization``;
        /// `nil` elsewhere.
        @TaskLocal public static var current: Principal?
    }
}
