@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitMCP
import EndpointKitTools
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct ListNotes: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "notes") }
    typealias ReturnPayloadType = [String]
}

private struct CreateNote: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "notes") }
    let text: String
    typealias ReturnPayloadType = EmptyPayload
}

private struct DeleteNote: Endpoint, Decodable {
    var endpoint: Restful { Restful(.delete, "notes/{id}") }
    let id: String
    typealias ReturnPayloadType = EmptyPayload
}

/// The tokens of the tests, each a principal: `ann-*` tokens all name the user ann.
private let principals: [String: MCPServer.Principal] = [
    "none": MCPServer.Principal(id: "nobody"),
    "read": MCPServer.Principal(id: "ann", scopes: ["notes:read"]),
    "write": MCPServer.Principal(id: "ann", scopes: ["notes:read", "notes:write"]),
    "admin": MCPServer.Principal(id: "ann", scopes: ["notes:admin"]),
    "audit": MCPServer.Principal(id: "ann", scopes: ["notes:audit"]),
]

/// What each tool needs: a delete needs two scopes, and `notes:admin` implies `notes:write`.
private let authorization = MCPServer.Authorization(
    resource: URL(string: "https://notes.test/mcp")!, authorizationServers: [URL(string: "https://auth.notes.test")!],
    scopesSupported: ["notes:read"],
    requiredScopes: ["create_note": ["notes:write"], "delete_note": ["notes:write", "notes:audit"]],
    impliedScopes: { $0 == "notes:admin" ? ["notes:write", "notes:read"] : [] }
) { token in principals[token] }

private let challengeTail = #"resource_metadata="https://notes.test/.well-known/oauth-protected-resource/mcp""#

private func server(_ transport: RecordingTransport, confirmation: MCPServer.Confirmation = .init()) -> MCPServer {
    MCPServer(name: "notes", version: "1", tools: EndpointTools([ListNotes.self, CreateNote.self, DeleteNote.self], on: .stub(transport)),
              authorization: authorization, confirmation: confirmation)
}

private func text(_ value: Any) -> Data { try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) }

private func call(_ id: Int, _ tool: String, _ arguments: [String: Any], meta: Bool = false, elicitation: Bool = false) -> [String: Any] {
    var params: [String: Any] = ["name": tool, "arguments": arguments]
    if meta {
        params["_meta"] = ["io.modelcontextprotocol/protocolVersion": "2026-07-28",
                           "io.modelcontextprotocol/clientCapabilities": elicitation ? ["elicitation": ["form": [:]]] : [:]] as [String: Any]
    }
    return ["jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params]
}

private func post(_ body: Data, token: String?, version: String?, tool: String? = nil, extraHeaders: [(name: String, value: String)] = []) -> MCPServer.HTTPRequest {
    var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
    if let version { headers.append(("MCP-Protocol-Version", version)) }
    if version == "2026-07-28", let tool { headers += [("Mcp-Method", "tools/call"), ("Mcp-Name", tool)] }
    if let token { headers.append(("Authorization", "Bearer " + token)) }
    return MCPServer.HTTPRequest(method: "POST", headers: headers + extraHeaders, body: body)
}

private func error(_ data: Data?) throws -> [String: Any] {
    let body = try #require(data)
    let reply = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    return try #require(reply["error"] as? [String: Any])
}

@Suite struct MCPAuthorizationTests {
    // MARK: - Every message shape

    @Test(arguments: ["2025-03-26", nil] as [String?])
    func `a batched call without its scope is refused whole, and nothing reaches the API`(version: String?) async throws {
        let transport = RecordingTransport(body: "[]")
        let mcp = server(transport)
        // Before the fix: 200, and the API received POST /notes and DELETE /notes/n9.
        for (batch, scopes) in [
            ([call(1, "create_note", ["text": "hi"])], "notes:write"),
            ([call(2, "list_notes", [:]), call(3, "delete_note", ["id": "n9"])], "notes:audit notes:write"),
        ] {
            let response = await mcp.handle(post(text(batch), token: "read", version: version))
            #expect(response.status == 403)
            #expect(response.value(forHeader: "WWW-Authenticate") == #"Bearer error="insufficient_scope", scope="\#(scopes)", "# + challengeTail)
            #expect(try error(response.body)["code"] as? Int == -32600)
        }
        #expect(transport.requests.isEmpty)
        // The same batch with the scopes it needs runs, in order.
        let allowed = await mcp.handle(post(text([call(4, "list_notes", [:]), call(5, "create_note", ["text": "hi"])]), token: "write", version: version))
        #expect(allowed.status == 200)
        #expect(try #require(try JSONSerialization.jsonObject(with: allowed.body) as? [[String: Any]]).map { $0["id"] as? Int } == [4, 5])
        #expect(transport.requests.map { "\($0.httpMethod!) \($0.url!.path)" }.sorted() == ["GET /api/v1/notes", "POST /api/v1/notes"])
    }

    @Test(arguments: ["2025-06-18", "2025-11-25", "2026-07-28"])
    func `a batch from a client of a version without batches is refused and nothing runs`(version: String) async throws {
        let transport = RecordingTransport(body: "[]")
        let mcp = server(transport)
        let response = await mcp.handle(post(text([call(1, "list_notes", [:])]), token: "admin", version: version))
        #expect(response.status == 400)
        let refused = try error(response.body)
        #expect(refused["code"] as? Int == -32600)
        #expect(refused["message"] as? String == "Invalid Request: JSON-RPC batches belong to protocol version 2025-03-26 only, and version \(version) sends one message at a time; nothing in the batch was run")
        #expect(transport.requests.isEmpty)
    }

    @Test func `a batch whose element names 2026-07-28 is refused whatever the header says`() async throws {
        let transport = RecordingTransport(body: "[]")
        let mcp = server(transport)
        for version in ["2025-03-26", nil] as [String?] {
            let response = await mcp.handle(post(text([call(1, "list_notes", [:], meta: true)]), token: "admin", version: version))
            #expect(response.status == 400)
            #expect((try error(response.body)["message"] as? String)?.hasSuffix("and 2026-07-28 sends one message at a time; nothing in the batch was run") == true)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func `over stdio a batch runs only after initialize agreed 2025-03-26`() async throws {
        let transport = RecordingTransport(body: "[]")
        let mcp = server(transport)
        let batch = text([call(1, "list_notes", [:])])
        #expect(try error(await mcp.handle(batch))["message"] as? String
            == "Invalid Request: JSON-RPC batches belong to protocol version 2025-03-26 only, and a client that agreed no version in initialize sends one message at a time; nothing in the batch was run")
        for (version, runs) in [("2025-11-25", false), ("2025-03-26", true)] {
            _ = await mcp.handle(text(["jsonrpc": "2.0", "id": 0, "method": "initialize", "params": ["protocolVersion": version, "capabilities": [:] as [String: Any], "clientInfo": ["name": "t", "version": "1"]]]))
            let reply = try #require(await mcp.handle(batch))
            #expect((try JSONSerialization.jsonObject(with: reply) is [Any]) == runs)
        }
        #expect(transport.requests.count == 1)
    }

    @Test func `a confirmed retry is checked again: a token that lost the scope sends nothing`() async throws {
        let transport = RecordingTransport(body: "{}")
        let mcp = server(transport)
        let first = await mcp.handle(post(text(call(1, "create_note", ["text": "hi"], meta: true, elicitation: true)), token: "write", version: "2026-07-28", tool: "create_note"))
        let result = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])["result"] as? [String: Any]
        let state = try #require(result?["requestState"] as? String)
        var retry = call(2, "create_note", ["text": "hi"], meta: true, elicitation: true)
        var params = retry["params"] as! [String: Any]
        params["requestState"] = state
        params["inputResponses"] = ["confirm": ["action": "accept", "content": ["confirm": true]]]
        retry["params"] = params
        // The same user (ann), the confirmation bound to her, but a token with the read scope only.
        let downgraded = await mcp.handle(post(text(retry), token: "read", version: "2026-07-28", tool: "create_note"))
        #expect(downgraded.status == 403)
        #expect(transport.requests.isEmpty)
        let sent = await mcp.handle(post(text(retry), token: "write", version: "2026-07-28", tool: "create_note"))
        #expect(sent.status == 200)
        #expect(transport.requests.count == 1)
    }

    @Test func `a transport of the app's own with a principal gets the same check`() async throws {
        let transport = RecordingTransport(body: "{}")
        let mcp = server(transport)
        let message = text(call(1, "create_note", ["text": "hi"]))
        #expect(try error(await mcp.handle(message, from: principals["read"]!))["message"] as? String
            == "Forbidden: the tool create_note needs the scope notes:write; nothing was sent")
        #expect(transport.requests.isEmpty)
        let reply = try #require(await mcp.handle(message, from: principals["admin"]!))
        #expect(reply.starts(with: Data(#"{"jsonrpc":"2.0","id":1,"result""#.utf8)))
        #expect(transport.requests.count == 1)
        // The local user (stdio) is the process's own: no scopes to check.
        #expect(try #require(await mcp.handle(message)).starts(with: Data(#"{"jsonrpc":"2.0","id":1,"result""#.utf8)))
    }

    // MARK: - Challenges

    @Test func `a call needs every scope the tool names, implied ones count, and the 403 names them all`() async throws {
        let transport = RecordingTransport(body: "{}")
        let mcp = server(transport)
        let delete = text(call(1, "delete_note", ["id": "n9"]))
        for (token, status, message) in [
            ("write", 403, "Forbidden: the tool delete_note needs the scopes notes:audit notes:write (missing notes:audit); nothing was sent"),
            ("audit", 403, "Forbidden: the tool delete_note needs the scopes notes:audit notes:write (missing notes:write); nothing was sent"),
            ("admin", 403, "Forbidden: the tool delete_note needs the scopes notes:audit notes:write (missing notes:audit); nothing was sent"),
        ] {
            let response = await mcp.handle(post(delete, token: token, version: "2025-11-25"))
            #expect(response.status == status)
            #expect(response.value(forHeader: "WWW-Authenticate") == #"Bearer error="insufficient_scope", scope="notes:audit notes:write", "# + challengeTail)
            #expect(try error(response.body)["message"] as? String == message)
        }
        #expect(transport.requests.isEmpty)
        // notes:admin implies notes:write.
        #expect(await mcp.handle(post(text(call(2, "create_note", ["text": "hi"])), token: "admin", version: "2025-11-25")).status == 200)
        #expect(transport.requests.map { $0.httpMethod } == ["POST"])
    }

    @Test func `the 401 challenge and the metadata name the scopes a client asks for first`() async throws {
        let mcp = server(RecordingTransport())
        let ping = text(["jsonrpc": "2.0", "id": 1, "method": "ping"])
        let missing = await mcp.handle(post(ping, token: nil, version: "2025-11-25"))
        #expect(missing.status == 401)
        #expect(missing.value(forHeader: "WWW-Authenticate") == #"Bearer scope="notes:read", "# + challengeTail)
        let refused = await mcp.handle(post(ping, token: "stolen", version: "2025-11-25"))
        #expect(refused.value(forHeader: "WWW-Authenticate") == #"Bearer error="invalid_token", scope="notes:read", "# + challengeTail)
        #expect(String(decoding: authorization.metadataResponse().body, as: UTF8.self)
            == #"{"resource":"https://notes.test/mcp","authorization_servers":["https://auth.notes.test"],"bearer_methods_supported":["header"],"scopes_supported":["notes:read"]}"#)
    }

    @Test(arguments: [
        ("Bearer", "Bearer without a token"),
        ("Bearer   ", "Bearer without a token"),
        ("Bearer read extra", "the token holds a character a bearer token cannot have (space, comma, quote or control character)"),
        (#"Bearer "read""#, "the token holds a character a bearer token cannot have (space, comma, quote or control character)"),
        ("Bearer re=ad", "the token holds a character a bearer token cannot have (space, comma, quote or control character)"),
        ("Bearer\tread", "expected a scheme such as Bearer, then the token"),
        ("", "expected a scheme such as Bearer, then the token"),
        ("=read", "expected a scheme such as Bearer, then the token"),
    ])
    func `a malformed Authorization field is 400 invalid_request`(field: String, reason: String) async throws {
        let transport = RecordingTransport(body: "[]")
        let response = await server(transport).handle(post(text(call(1, "list_notes", [:])), token: nil, version: "2025-11-25", extraHeaders: [("Authorization", field)]))
        #expect(response.status == 400)
        #expect(response.value(forHeader: "WWW-Authenticate") == #"Bearer error="invalid_request", "# + challengeTail)
        #expect(try error(response.body)["message"] as? String == "Invalid Request: the Authorization field is malformed: " + reason)
        #expect(transport.requests.isEmpty)
    }

    @Test func `two Authorization fields are 400, another scheme 401, a padded token and any case of Bearer are read`() async throws {
        let mcp = server(RecordingTransport())
        let ping = text(["jsonrpc": "2.0", "id": 1, "method": "ping"])
        let twice = await mcp.handle(post(ping, token: "read", version: "2025-11-25", extraHeaders: [("authorization", "Bearer read")]))
        #expect(twice.status == 400)
        #expect(try error(twice.body)["message"] as? String == "Invalid Request: the Authorization field is given 2 times")
        #expect(twice.value(forHeader: "WWW-Authenticate") == #"Bearer error="invalid_request", "# + challengeTail)
        let basic = await mcp.handle(post(ping, token: nil, version: "2025-11-25", extraHeaders: [("Authorization", "Basic YW5uOnB3")]))
        #expect(basic.status == 401)
        #expect(basic.value(forHeader: "WWW-Authenticate") == #"Bearer scope="notes:read", "# + challengeTail)
        #expect(MCPServer.bearerField("bEaReR   a-b.c_d~e+f/g==") == .token("a-b.c_d~e+f/g=="))
        #expect(await mcp.handle(post(ping, token: nil, version: "2025-11-25", extraHeaders: [("Authorization", "  bearer read ")])).status == 200)
    }

    // MARK: - Duplicate keys

    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_notes","name":"create_note","arguments":{"text":"hi"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_note","arguments":{"text":"hi"},"arguments":{"text":"yo"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_note","arguments":{"text":"hi"},"_meta":{"a":1,"a":2}}}"#,
    ])
    func `a key twice anywhere in a request is refused, and nothing runs`(message: String) async throws {
        let transport = RecordingTransport(body: "{}")
        let response = await server(transport).handle(post(Data(message.utf8), token: "write", version: "2025-11-25"))
        #expect(response.status == 200)  // a JSON-RPC error under the request's id, as 2025-11-25 answers one
        let refused = try error(response.body)
        #expect(refused["code"] as? Int == -32600)
        #expect((refused["message"] as? String)?.hasPrefix("Invalid Request: the key ") == true)
        #expect(transport.requests.isEmpty)
    }

    // MARK: - Property: no request reaches the API without its scopes

    /// Every message shape × token × revision: a request the API receives is one its token's
    /// scopes (and those they imply) allow, and every allowed one-message call is sent.
    @Test func `no shape, token or revision sends a request without its scopes`() async throws {
        let needs: [String: Set<String>] = ["list_notes": [], "create_note": ["notes:write"], "delete_note": ["notes:write", "notes:audit"]]
        let paths = ["GET /api/v1/notes": "list_notes", "POST /api/v1/notes": "create_note", "DELETE /api/v1/notes/n9": "delete_note"]
        let arguments: [String: [String: Any]] = ["list_notes": [:], "create_note": ["text": "hi"], "delete_note": ["id": "n9"]]
        let tokens: [String?] = [nil, "forged", "none", "read", "write", "admin", "audit"]
        let versions: [String?] = [nil, "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
        let shapes = ["one", "batch", "batch-after-read", "notification-then-call", "duplicate-name"]
        var cases = 0
        var sentTotal = 0
        for token in tokens {
            let granted = token.flatMap { principals[$0] }.map { authorization.granted(by: $0.scopes) }
            for version in versions {
                for shape in shapes {
                    for tool in ["list_notes", "create_note", "delete_note"] {
                        let transport = RecordingTransport(body: "{}")
                        // Writes are sent without asking, so that only authorization stands in the way.
                        let mcp = server(transport, confirmation: .init(whenClientCannotAsk: .send))
                        let current = version == "2026-07-28"
                        let one = call(7, tool, arguments[tool]!, meta: current)
                        let body: Data
                        switch shape {
                        case "one": body = text(one)
                        case "batch": body = text([one])
                        case "batch-after-read": body = text([call(6, "list_notes", [:], meta: current), one])
                        case "notification-then-call": body = text([["jsonrpc": "2.0", "method": "notifications/initialized"], one])
                        default:
                            body = Data(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_notes","name":"\#(tool)","arguments":{}}}"#.utf8)
                        }
                        let response = await mcp.handle(post(body, token: token, version: version, tool: tool))
                        cases += 1
                        let sent = transport.requests.map { "\($0.httpMethod!) \($0.url!.path)" }
                        sentTotal += sent.count
                        for request in sent {
                            let reached = try #require(paths[request])
                            #expect(granted.map { needs[reached]!.isSubset(of: $0) } == true,
                                    "\(shape), token \(token ?? "none"), version \(version ?? "none"): \(request) reached the API (\(response.status))")
                        }
                        if shape == "one", let granted, needs[tool]!.isSubset(of: granted) {
                            #expect(sent.count == 1, "\(tool) with \(token!) at \(version ?? "none") was not sent: \(response.status)")
                        }
                    }
                }
            }
        }
        #expect(cases == 7 * 5 * 5 * 3)
        #expect(sentTotal > 0)
    }
}
