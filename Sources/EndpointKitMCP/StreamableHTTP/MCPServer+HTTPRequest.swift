import Foundation

extension MCPServer {
    /// One HTTP request to the MCP endpoint, as the app's HTTP server received it: what
    /// ``MCPServer/handle(_:)->MCPServer.HTTPResponse`` needs to apply Streamable HTTP's rules.
    ///
    /// ```swift
    /// // Hummingbird
    /// let request = MCPServer.HTTPRequest(
    ///     method: request.method.rawValue,
    ///     headers: request.headers.map { ($0.name.rawName, $0.value) },
    ///     body: Data(buffer: try await request.body.collect(upTo: MCPServer.maximumMessageSize)))
    /// ```
    public struct HTTPRequest: Sendable {
        /// The request's method, such as `POST`.
        public var method: String
        /// The request's header fields in the order received, names in any case; a name may repeat.
        public var headers: [(name: String, value: String)]
        /// The request's body: one JSON-RPC message or a batch. Collect it with a limit
        /// (``MCPServer/maximumMessageSize`` is the one standard input has).
        public var body: Data

        /// A request with `method`, header fields `headers` and `body`.
        ///
        /// ```swift
        /// let request = MCPServer.HTTPRequest(method: "POST", headers: [("Content-Type", "application/json")], body: message)
        /// ```
        public init(method: String, headers: [(name: String, value: String)], body: Data) {
            self.method = method
            self.headers = headers
            self.body = body
        }

        /// The values of the header field `name`, compared without regard to case.
        func values(of name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }
    }
}
