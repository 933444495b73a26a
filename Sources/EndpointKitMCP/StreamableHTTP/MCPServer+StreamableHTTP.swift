import Foundation

extension MCPServer {
    /// The origins allowed by default: web pages served from this machine, on any port
    /// (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`).
    public static let loopbackOrigins = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]

    /// Answers one HTTP request to the MCP endpoint as MCP's Streamable HTTP transport requires:
    /// the HTTP rules first, then the body as ``handle(_:)->Data?`` answers it. Mount it on one path
    /// of your HTTP server, for every method.
    ///
    /// ```swift
    /// // Hummingbird: every method of /mcp goes to the server, which answers all but POST with 405.
    /// for method in [HTTPRequest.Method.post, .get, .delete] {
    ///     router.on("/mcp", method: method) { request, _ -> Response in
    ///         let reply = await mcp.handle(MCPServer.HTTPRequest(
    ///             method: request.method.rawValue,
    ///             headers: request.headers.map { ($0.name.rawName, $0.value) },
    ///             body: Data(buffer: try await request.body.collect(upTo: MCPServer.maximumMessageSize))))
    ///         var headers = HTTPFields()
    ///         for (name, value) in reply.headers { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
    ///         return Response(status: .init(code: reply.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    ///     }
    /// }
    /// ```
    ///
    /// The rules, in the order they are checked:
    /// 1. `Origin`, when present, must match one of the server's `allowedOrigins`, else
    ///    **403 Forbidden**: a web page elsewhere (DNS rebinding) is never served. Clients that are
    ///    not browsers send no `Origin`.
    /// 2. The method must be `POST`, else **405 Method Not Allowed** with `Allow: POST`: this
    ///    server opens no event stream of its own (`GET`) and keeps no sessions (`DELETE`).
    /// 3. `MCP-Protocol-Version`, when present, must be one of ``supportedVersions``, else
    ///    **400 Bad Request**. Without it the client is taken to speak 2025-03-26, as MCP says.
    /// 4. `Accept`, when present, must admit `application/json` (`application/json`,
    ///    `application/*` or `*/*`, with a nonzero `q`), else **406 Not Acceptable**.
    /// 5. `Content-Type` must be `application/json` (parameters such as `charset` allowed), else
    ///    **415 Unsupported Media Type**.
    /// 6. The body is answered: **200 OK** with the `application/json` reply, **202 Accepted** with
    ///    no body when there is none (notifications, replies, a cancelled call), **400 Bad Request**
    ///    with the JSON-RPC error when the body is not a JSON-RPC message at all.
    ///
    /// Each refusal carries a JSON-RPC error (`id: null`, code `-32600`) whose message names the
    /// header and what was expected. Sessions (`Mcp-Session-Id`) are not used: each request stands
    /// alone, so the server sends no session id and ignores one a client sends.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let origins = request.values(of: "Origin")
        if origins.count > 1 || origins.first.map({ !MCPServer.origin($0, matchesAnyOf: allowedOrigins) }) == true {
            return MCPServer.refusal(403, "the Origin \(origins.joined(separator: ", ")) is not one this server allows")
        }
        guard request.method.uppercased() == "POST" else {
            var response = MCPServer.refusal(405, "\(request.method) is not served here: send each message as a POST")
            response.headers.append(("Allow", "POST"))
            return response
        }
        let versions = request.values(of: "MCP-Protocol-Version")
        if versions.count > 1 || versions.first.map({ !MCPServer.supportedVersions.contains($0.trimmingCharacters(in: .whitespaces)) }) == true {
            return MCPServer.refusal(400, "the MCP-Protocol-Version \(versions.joined(separator: ", ")) is not one of \(MCPServer.supportedVersions.joined(separator: ", "))")
        }
        let accepted = request.values(of: "Accept")
        if !accepted.isEmpty, !MCPServer.admitsJSON(accepted.joined(separator: ",")) {
            return MCPServer.refusal(406, "the Accept \(accepted.joined(separator: ", ")) does not admit application/json, the only form of this server's replies")
        }
        let types = request.values(of: "Content-Type")
        guard types.count == 1, MCPServer.mediaType(types[0]) == "application/json" else {
            return MCPServer.refusal(415, "the Content-Type must be application/json, not \(types.isEmpty ? "absent" : types.joined(separator: ", "))")
        }
        guard let reply = await handle(request.body) else {
            return HTTPResponse(status: 202, headers: [], body: Data())
        }
        let refused = reply.starts(with: Data(#"{"jsonrpc":"2.0","id":null,"error""#.utf8))
        return HTTPResponse(status: refused ? 400 : 200, headers: [("Content-Type", "application/json")], body: reply)
    }

    /// A refusal with `status` and a JSON-RPC error saying `reason`.
    static func refusal(_ status: Int, _ reason: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: reply(id: .null, error: -32600, "Invalid Request: \(reason)"))
    }

    /// Whether `origin` (an `Origin` header's value) is one of `patterns`: an exact origin such as
    /// `https://app.example`, or one whose port is `*` (any port, and only a port).
    static func origin(_ origin: String, matchesAnyOf patterns: [String]) -> Bool {
        let origin = origin.trimmingCharacters(in: .whitespaces).lowercased()
        return patterns.contains { pattern in
            let pattern = pattern.lowercased()
            guard pattern.hasSuffix(":*") else { return origin == pattern }
            let base = pattern.dropLast(1)
            guard origin.hasPrefix(base) else { return false }
            let port = origin.dropFirst(base.count)
            return !port.isEmpty && port.count <= 5 && port.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }

    /// Whether an `Accept` value admits `application/json` with a nonzero quality.
    static func admitsJSON(_ accept: String) -> Bool {
        accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, ["application/json", "application/*", "*/*"].contains(type) else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }

    /// A `Content-Type` value's media type, lowercased, without parameters.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
    }
}
