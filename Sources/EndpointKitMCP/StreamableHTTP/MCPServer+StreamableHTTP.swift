import EndpointKit
import EndpointKitTools
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
    /// 3. With ``Authorization``, `Authorization: Bearer <token>` whose principal the app's
    ///    `verify` gives, else **401 Unauthorized** with a `WWW-Authenticate: Bearer` challenge
    ///    naming the metadata document and ``Authorization/scopesSupported``
    ///    (`error="invalid_token"` for a refused token); a malformed `Authorization` field, or two,
    ///    **400 Bad Request** with `error="invalid_request"`.
    /// 4. `MCP-Protocol-Version`, when present, must be one of ``supportedVersions``, else
    ///    **400 Bad Request** with `UnsupportedProtocolVersionError` (`-32022`). Without it the client
    ///    is taken to speak 2025-03-26, as MCP says.
    /// 5. `Accept`, when present, must admit `application/json` (`application/json`,
    ///    `application/*` or `*/*`, with a nonzero `q`), else **406 Not Acceptable**.
    /// 6. `Content-Type` must be `application/json` (parameters such as `charset` allowed), else
    ///    **415 Unsupported Media Type**.
    /// 7. A 2026-07-28 request: `MCP-Protocol-Version`, `Mcp-Method` and, for `tools/call`,
    ///    `Mcp-Name` (plain or `=?base64?…?=`) must match its body, else **400** with `HeaderMismatch`
    ///    (`-32020`); a header of 2026-07-28 on a body without its `_meta` is **400** with `-32602`.
    /// 8. The body is answered. A call of a tool whose scopes (``Authorization/requiredScopes``)
    ///    the principal lacks, alone or in a batch: **403 Forbidden** with
    ///    `error="insufficient_scope"` and every scope the call needs, nothing sent. A batch from a
    ///    client of any version but 2025-03-26 (the header's, 2025-03-26 without one): **400**,
    ///    nothing run. Else **200 OK** with the `application/json` reply, **202 Accepted** with
    ///    no body when there is none (notifications, replies, a cancelled call), **400 Bad Request**
    ///    with the JSON-RPC error when the body is not a JSON-RPC message at all or a 2026-07-28
    ///    request is malformed, **404** for a method 2026-07-28 does not have.
    ///
    /// Each refusal of rules 1, 2, 3, 5 and 6 carries a JSON-RPC error (`id: null`, code `-32600`) whose
    /// message names the header and what was expected. Sessions (`Mcp-Session-Id`) are not used:
    /// each request stands alone, so the server sends no session id and ignores one a client sends.
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
        var caller = Caller(channel: .http, principal: nil)
        if let authorization {
            let fields = request.values(of: "Authorization")
            guard fields.count <= 1 else {
                return MCPServer.refusal(400, "the Authorization field is given \(fields.count) times", challenge: authorization.challenge(error: "invalid_request", scopes: []))
            }
            switch fields.first.map(MCPServer.bearerField) {
            case nil, .otherScheme?:
                return MCPServer.refusal(401, "this server needs Authorization: Bearer and a token its authorization server issued",
                                         challenge: authorization.challenge(scopes: authorization.scopesSupported))
            case .malformed(let reason)?:
                return MCPServer.refusal(400, "the Authorization field is malformed: \(reason)", challenge: authorization.challenge(error: "invalid_request", scopes: []))
            case .token(let token)?:
                guard let principal = await authorization.verify(token) else {
                    return MCPServer.refusal(401, "the bearer token is not one this server accepts",
                                             challenge: authorization.challenge(error: "invalid_token", scopes: authorization.scopesSupported))
                }
                caller.principal = principal
            }
        }
        let versions = request.values(of: "MCP-Protocol-Version")
        if versions.count > 1 {
            return MCPServer.refusal(400, "the MCP-Protocol-Version is given \(versions.count) times")
        }
        let headerVersion = versions.first?.trimmingCharacters(in: .whitespaces)
        // Without the header the client is taken to speak 2025-03-26, as MCP says.
        caller.protocolVersion = headerVersion ?? MCPServer.versionWithoutHeader
        let accepted = request.values(of: "Accept")
        if !accepted.isEmpty, !MCPServer.admitsJSON(accepted.joined(separator: ",")) {
            return MCPServer.refusal(406, "the Accept \(accepted.joined(separator: ", ")) does not admit application/json, the only form of this server's replies")
        }
        let types = request.values(of: "Content-Type")
        guard types.count == 1, MCPServer.mediaType(types[0]) == "application/json" else {
            return MCPServer.refusal(415, "the Content-Type must be application/json, not \(types.isEmpty ? "absent" : types.joined(separator: ", "))")
        }
        // Parsed once, for the header checks and the answer.
        let parsed = Result { () throws(Unparsable) in try MCPServer.parse(request.body) }
        let message = (try? parsed.get()) ?? .null
        // What the headers say must be what the body says (2026-07-28: an intermediary may route on
        // the headers, the server acts on the body).
        let id = MCPServer.validID(message["id"]) ?? .null
        let method = message["method"]?.stringValue
        let bodyVersion = method.flatMap { statelessVersion(method: $0, params: message["params"] ?? .object([:])) }
        if let headerVersion, !MCPServer.supportedVersions.contains(headerVersion) {
            let data = JSONValue.object(["supported": .array(MCPServer.supportedVersions.map(JSONValue.string)), "requested": .string(headerVersion)])
            return MCPServer.jsonReply(400, MCPServer.reply(id: id, error: -32022, "Unsupported protocol version: the MCP-Protocol-Version \(headerVersion) is not one of \(MCPServer.supportedVersions.joined(separator: ", "))", data: data))
        }
        if let bodyVersion, MCPServer.revision(bodyVersion)?.isStateless == true, let method {
            if let mismatch = MCPServer.headerMismatch(request, version: bodyVersion, headerVersion: headerVersion, method: method, params: message["params"]) {
                return MCPServer.jsonReply(400, MCPServer.reply(id: id, error: -32020, "Header mismatch: \(mismatch)"))
            }
        } else if let headerVersion, MCPServer.revision(headerVersion)?.isStateless == true, message["id"] != nil, method != nil {
            return MCPServer.jsonReply(400, MCPServer.reply(id: id, error: -32602, "Invalid params: a \(headerVersion) request needs its protocol version in _meta[\"\(MCPServer.protocolVersionKey)\"]"))
        }
        let reply: Reply
        switch parsed {
        case .success(let value): reply = await respond(to: value, caller: caller)
        case .failure(let unparsable): reply = Reply(unparsable.reply)
        }
        guard let body = reply.body else {
            return HTTPResponse(status: 202, headers: [], body: Data())
        }
        let refused = body.starts(with: Data(#"{"jsonrpc":"2.0","id":null,"error""#.utf8))
        var response = MCPServer.jsonReply(reply.status != 200 ? reply.status : refused ? 400 : 200, body)
        response.headers += reply.headers
        return response
    }

    /// The version of a client that sends no `MCP-Protocol-Version`, as MCP says.
    static let versionWithoutHeader = "2025-03-26"

    static func jsonReply(_ status: Int, _ body: Data) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    /// What an `Authorization` field holds (RFC 6750 §2.1, RFC 9110 §11.4).
    enum BearerField: Equatable {
        /// `Bearer` and a token of the `b64token` syntax.
        case token(String)
        /// Credentials of a scheme other than `Bearer`, such as `Basic`: no bearer token (401).
        case otherScheme(String)
        /// Not credentials at all, or `Bearer` with no token or a token of another syntax (400).
        case malformed(String)
    }

    /// What the `Authorization` field `field` holds: the scheme in any case, then one or more
    /// spaces, then the token (letters, digits, `-._~+/`, then `=` padding).
    static func bearerField(_ field: String) -> BearerField {
        let trimmed = field.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        let scheme = trimmed.prefix { $0 != " " }
        let isToken: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0)) }
        guard !scheme.isEmpty, scheme.allSatisfy(isToken) else { return .malformed("expected a scheme such as Bearer, then the token") }
        guard scheme.lowercased() == "bearer" else { return .otherScheme(String(scheme)) }
        let token = trimmed.dropFirst(scheme.count).drop { $0 == " " }
        guard !token.isEmpty else { return .malformed("Bearer without a token") }
        let body = token.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~+/".contains($0)) }
        let padding = token.dropFirst(body.count)
        guard !body.isEmpty, padding.allSatisfy({ $0 == "=" }) else {
            return .malformed("the token holds a character a bearer token cannot have (space, comma, quote or control character)")
        }
        return .token(String(token))
    }

    /// What the standard request headers of 2026-07-28 get wrong against the body, if anything:
    /// `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for `tools/call` (its Base64 form
    /// `=?base64?…?=` decoded first).
    static func headerMismatch(_ request: HTTPRequest, version: String, headerVersion: String?, method: String, params: JSONValue?) -> String? {
        guard let headerVersion else { return "the MCP-Protocol-Version header is missing; the body's _meta says \(version)" }
        guard headerVersion == version else { return "the MCP-Protocol-Version header says \(headerVersion), the body's _meta \(version)" }
        let methods = request.values(of: "Mcp-Method")
        guard methods.count == 1 else { return methods.isEmpty ? "the Mcp-Method header is missing" : "the Mcp-Method header is given \(methods.count) times" }
        guard methods[0].trimmingCharacters(in: .whitespaces) == method else { return "the Mcp-Method header value '\(methods[0])' does not match the body's method '\(method)'" }
        guard ["tools/call", "resources/read", "prompts/get"].contains(method) else { return nil }
        let body = params?["name"]?.stringValue ?? params?["uri"]?.stringValue ?? ""
        let names = request.values(of: "Mcp-Name")
        guard names.count == 1 else { return names.isEmpty ? "the Mcp-Name header is missing" : "the Mcp-Name header is given \(names.count) times" }
        guard let name = decodedHeaderValue(names[0]) else { return "the Mcp-Name header value is not valid" }
        return name == body ? nil : "the Mcp-Name header value '\(names[0])' does not match the body's name '\(body)'"
    }

    /// A header value as MCP writes it: plain, or `=?base64?…?=` for one that is not plain ASCII.
    static func decodedHeaderValue(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard trimmed.hasPrefix("=?base64?"), trimmed.hasSuffix("?="), trimmed.count >= 11 else {
            return trimmed.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) ? trimmed : nil
        }
        let encoded = trimmed.dropFirst(9).dropLast(2)
        guard let data = Data(base64Encoded: String(encoded)), let text = String(data: data, encoding: .utf8) else { return nil }
        return text
    }

    static func refusal(_ status: Int, _ reason: String, challenge: String? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: reply(id: .null, error: -32600, "Invalid Request: \(reason)"))
        if let challenge { response.headers.append(("WWW-Authenticate", challenge)) }
        return response
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
