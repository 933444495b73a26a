import Foundation

extension MCPServer {
    /// What to send back for an ``MCPServer/HTTPRequest``: a status, header fields and a body
    /// (empty for `202 Accepted`).
    ///
    /// ```swift
    /// // Hummingbird
    /// let response = await mcp.handle(request)
    /// var fields = HTTPFields()
    /// for (name, value) in response.headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
    /// return Response(status: .init(code: response.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: response.body)))
    /// ```
    public struct HTTPResponse: Sendable {
        /// The status code: 200 with a JSON-RPC reply, 202 when there is none, 4xx for a request
        /// the transport refuses.
        public var status: Int
        /// The header fields to send, such as `Content-Type: application/json` or `Allow: POST`.
        public var headers: [(name: String, value: String)]
        /// The body: a JSON-RPC reply (an error with `id: null` for a refused request), or empty.
        public var body: Data

        /// A response with `status`, header fields `headers` and `body`.
        ///
        /// ```swift
        /// let accepted = MCPServer.HTTPResponse(status: 202, headers: [], body: Data())
        /// ```
        public init(status: Int, headers: [(name: String, value: String)], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The value of the header field `name`, compared without regard to case.
        ///
        /// ```swift
        /// #expect(response.value(forHeader: "content-type") == "application/json")
        /// ```
        public func value(forHeader name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }
}
