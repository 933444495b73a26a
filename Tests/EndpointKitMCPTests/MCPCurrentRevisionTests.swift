@testable import EndpointKit
import EndpointKitTestSupport
import EndpointKitMCP
import EndpointKitTools
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct Balance: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "balance") }
    struct ReturnPayloadType: Codable, Sendable { let balance: Int }
}

private struct Purchase: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "purchases") }
    let item: String
    let quantity: Int
    struct ReturnPayloadType: Codable, Sendable { let balance: Int }
}

private struct Tags: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "tags") }
    typealias ReturnPayloadType = [String]
}

private let current = "2026-07-28"

/// A 2026-07-28 request: its protocol version and the client's capabilities in `_meta`.
private func request(_ id: Int, _ method: String, _ params: [String: Any] = [:], elicitation: Bool = true, version: String = current) -> Data {
    var params = params
    params["_meta"] = [
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": elicitation ? ["elicitation": ["form": [:]]] : [:],
        "io.modelcontextprotocol/clientInfo": ["name": "test", "version": "1"],
    ] as [String: Any]
    return try! JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": id, "method": method, "params": params])
}

private func object(_ data: Data?) throws -> [String: Any] {
    let data = try #require(data)
    let value = try JSONSerialization.jsonObject(with: data)
    return try #require(value as? [String: Any])
}

private func tools(_ transport: RecordingTransport, confirmation: (@Sendable (PendingToolCall) async -> Bool)? = nil) -> EndpointTools {
    EndpointTools([Balance.self, Purchase.self, Tags.self], on: .stub(transport), confirmation: confirmation)
}

private func http(_ body: Data, method: String? = nil, name: String? = nil, version: String? = current, token: String? = nil) -> MCPServer.HTTPRequest {
    var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
    if let version { headers.append(("MCP-Protocol-Version", version)) }
    if let method { headers.append(("Mcp-Method", method)) }
    if let name { headers.append(("Mcp-Name", name)) }
    if let token { headers.append(("Authorization", "Bearer " + token)) }
    return MCPServer.HTTPRequest(method: "POST", headers: headers, body: body)
}

@Suite struct MCPCurrentRevisionTests {
    @Test func `server discover names every version, the tools capability, the cache hints and the server`() async throws {
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(RecordingTransport()), instructions: "Cheers.")
        let reply = try object(await mcp.handle(request(1, "server/discover")))
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["resultType"] as? String == "complete")
        #expect(result["supportedVersions"] as? [String] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        #expect((result["capabilities"] as? [String: Any])?["tools"] != nil)
        #expect(result["instructions"] as? String == "Cheers.")
        #expect(result["ttlMs"] as? Int == 3_600_000)
        #expect(result["cacheScope"] as? String == "public")
        let meta = try #require(result["_meta"] as? [String: Any])
        #expect(meta["io.modelcontextprotocol/serverInfo"] as? [String: String] == ["name": "bank", "version": "2"])
    }

    @Test func `a version it does not speak is UnsupportedProtocolVersionError naming the ones it does`() async throws {
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(RecordingTransport()))
        let reply = try object(await mcp.handle(request(3, "tools/list", version: "1900-01-01")))
        #expect(reply["id"] as? Int == 3)
        let error = try #require(reply["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32022)
        let data = try #require(error["data"] as? [String: Any])
        #expect(data["requested"] as? String == "1900-01-01")
        #expect(data["supported"] as? [String] == MCPServer.supportedVersions)
        let http = await mcp.handle(http(request(4, "tools/list", version: "1900-01-01"), method: "tools/list", version: "1900-01-01"))
        #expect(http.status == 400)
        #expect(try (object(http.body)["error"] as? [String: Any])?["code"] as? Int == -32022)
    }

    @Test func `a current request without its client capabilities is invalid params, 400 over HTTP`() async throws {
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(RecordingTransport()))
        let body = Data(#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#.utf8)
        let reply = try object(await mcp.handle(body))
        #expect((reply["error"] as? [String: Any])?["code"] as? Int == -32602)
        #expect(await mcp.handle(http(body, method: "tools/list")).status == 400)
        let discover = try object(await mcp.handle(Data(#"{"jsonrpc":"2.0","id":6,"method":"server/discover"}"#.utf8)))
        #expect((discover["error"] as? [String: Any])?["code"] as? Int == -32602)
    }

    @Test func `ping and initialize are not methods of 2026-07-28, and stay served to earlier clients`() async throws {
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(RecordingTransport()))
        let ping = try object(await mcp.handle(request(7, "ping")))
        #expect((ping["error"] as? [String: Any])?["code"] as? Int == -32601)
        #expect(await mcp.handle(http(request(8, "ping"), method: "ping")).status == 404)
        let legacy = await mcp.handle(Data(#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#.utf8))
        #expect(legacy.map { String(decoding: $0, as: UTF8.self) } == #"{"jsonrpc":"2.0","id":9,"result":{}}"#)
        let initialize = try object(await mcp.handle(Data(#"{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2026-07-28"}}"#.utf8)))
        #expect((initialize["result"] as? [String: Any])?["protocolVersion"] as? String == "2025-11-25")
    }

    @Test func `tools list carries resultType, the cache hints, the tools in order, and a list payload's schema as it is`() async throws {
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(RecordingTransport()))
        let result = try #require(try object(await mcp.handle(request(11, "tools/list")))["result"] as? [String: Any])
        #expect(result["resultType"] as? String == "complete")
        #expect(result["ttlMs"] as? Int == 3_600_000)
        #expect(result["cacheScope"] as? String == "public")
        let listed = try #require(result["tools"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["balance", "purchase", "tags"])
        let tags = try #require(listed.last?["outputSchema"] as? [String: Any])
        #expect(tags["type"] as? String == "array")
        let legacy = try #require(try object(await mcp.handle(Data(#"{"jsonrpc":"2.0","id":12,"method":"tools/list"}"#.utf8)))["result"] as? [String: Any])
        #expect(legacy["resultType"] == nil && legacy["ttlMs"] == nil)
        #expect(((legacy["tools"] as? [[String: Any]])?.last?["outputSchema"] as? [String: Any])?["type"] as? String == "object")
    }

    @Test func `a list payload is structured content as it is for 2026-07-28 and wrapped for earlier clients`() async throws {
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(RecordingTransport(body: #"["a","b"]"#)))
        let result = try #require(try object(await mcp.handle(request(13, "tools/call", ["name": "tags", "arguments": [:]])))["result"] as? [String: Any])
        #expect(result["structuredContent"] as? [String] == ["a", "b"])
        #expect(result["resultType"] as? String == "complete")
        let legacy = try #require(try object(await mcp.handle(Data(#"{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"tags","arguments":{}}}"#.utf8)))["result"] as? [String: Any])
        #expect(legacy["structuredContent"] as? [String: [String]] == ["result": ["a", "b"]])
    }

    // MARK: - Confirmation

    @Test func `a write from a client that can elicit is asked about, and sent once the user accepts`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 90}"#)
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(transport))
        let first = Data(#"""
            {"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"purchase","arguments":{"item":"cheer","quantity":2},
             "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}
            """#.utf8)
        let asked = try #require(try object(await mcp.handle(first))["result"] as? [String: Any])
        #expect(asked["resultType"] as? String == "input_required")
        #expect(transport.requests.isEmpty)
        let question = try #require((asked["inputRequests"] as? [String: Any])?["confirm"] as? [String: Any])
        #expect(question["method"] as? String == "elicitation/create")
        let params = try #require(question["params"] as? [String: Any])
        #expect(params["mode"] as? String == "form")
        #expect(params["message"] as? String == #"Allow the tool purchase to send POST /api/v1/purchases on api.example.com with {"item":"cheer","quantity":2}?"#)
        let state = try #require(asked["requestState"] as? String)

        let retry = request(21, "tools/call", ["name": "purchase", "arguments": ["quantity": 2, "item": "cheer"], "requestState": state,
                                                "inputResponses": ["confirm": ["action": "accept", "content": ["confirm": true]]]])
        let sent = try #require(try object(await mcp.handle(retry))["result"] as? [String: Any])
        #expect(sent["isError"] as? Bool == false)
        #expect(sent["structuredContent"] as? [String: Int] == ["balance": 90])
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.bodyText == #"{"item":"cheer","quantity":2}"#)

        // The same confirmation again: refused, nothing more sent.
        let again = try object(await mcp.handle(retry))
        #expect((again["error"] as? [String: Any])?["message"] as? String == "Invalid params: the requestState is refused: it has been used already: each confirmation sends one call; nothing was sent")
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [["action": "decline"], ["action": "cancel"], ["action": "accept", "content": ["confirm": false]]] as [[String: any Sendable]])
    func `a declined, cancelled or unticked confirmation is an error result and nothing is sent`(answer: [String: any Sendable]) async throws {
        let transport = RecordingTransport(body: #"{"balance": 90}"#)
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(transport))
        let arguments: [String: Any] = ["item": "cheer", "quantity": 2]
        let asked = try #require(try object(await mcp.handle(request(22, "tools/call", ["name": "purchase", "arguments": arguments])))["result"] as? [String: Any])
        let state = try #require(asked["requestState"] as? String)
        let result = try #require(try object(await mcp.handle(request(23, "tools/call", ["name": "purchase", "arguments": arguments, "requestState": state,
                                                                                   "inputResponses": ["confirm": answer]])))["result"] as? [String: Any])
        #expect(result["isError"] as? Bool == true)
        let text = try #require(((result["content"] as? [[String: Any]])?.first?["text"]) as? String)
        #expect(text.contains("The user declined POST /api/v1/purchases; nothing was sent."))
        #expect(transport.requests.isEmpty)
    }

    @Test func `a changed, foreign, expired or misapplied requestState is refused and nothing is sent`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 90}"#)
        let key = Data(repeating: 7, count: 32)
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(transport), confirmation: .init(key: key, lifetime: 1))
        let arguments: [String: Any] = ["item": "cheer", "quantity": 2]
        let asked = try #require(try object(await mcp.handle(request(24, "tools/call", ["name": "purchase", "arguments": arguments])))["result"] as? [String: Any])
        let state = try #require(asked["requestState"] as? String)
        func retry(_ state: String, _ arguments: [String: Any] = arguments) async throws -> String? {
            let reply = try object(await mcp.handle(request(25, "tools/call", ["name": "purchase", "arguments": arguments, "requestState": state,
                                                                              "inputResponses": ["confirm": ["action": "accept", "content": ["confirm": true]]]])))
            return (reply["error"] as? [String: Any])?["message"] as? String
        }
        // The last character of each part, changed in its unused low bits too (A to B: the same
        // bytes in base64, which once let this test pass a changed state 1 time in 16).
        for part in [state.split(separator: ".")[1].endIndex, state.endIndex] {
            for change in [1, 32] {
                var tampered = Array(state)
                let last = state.distance(from: state.startIndex, to: part) - 1
                let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
                tampered[last] = alphabet[(alphabet.firstIndex(of: tampered[last])! + change) % 64]
                #expect(try await retry(String(tampered)) == "Invalid params: the requestState is refused: its signature does not match: it was changed, or signed with another key; nothing was sent")
            }
        }
        #expect(try await retry("v1.e30.AAAA") == "Invalid params: the requestState is refused: its signature does not match: it was changed, or signed with another key; nothing was sent")
        #expect(try await retry("not-a-state") == "Invalid params: the requestState is refused: it is not a requestState this server wrote; nothing was sent")
        #expect(try await retry(state, ["item": "cheer", "quantity": 200]) == "Invalid params: the requestState is refused: it was given for another tool or other arguments; nothing was sent")
        let other = MCPServer(name: "bank", version: "2", tools: tools(transport), confirmation: .init(key: Data(repeating: 8, count: 32)))
        let foreign = try object(await other.handle(request(26, "tools/call", ["name": "purchase", "arguments": arguments, "requestState": state,
                                                                              "inputResponses": ["confirm": ["action": "accept"]]])))
        #expect((foreign["error"] as? [String: Any])?["code"] as? Int == -32602)
        try await Task.sleep(for: .seconds(2.5))  // past the one-second lifetime
        #expect(try await retry(state) == "Invalid params: the requestState is refused: it has expired: ask again; nothing was sent")
        #expect(transport.requests.isEmpty)
    }

    @Test func `a confirmation given to one principal is refused to another`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 90}"#)
        let authorization = MCPServer.Authorization(resource: URL(string: "https://mcp.bank.test/mcp")!, authorizationServers: [URL(string: "https://auth.bank.test")!]) { token in
            ["ann-token": MCPServer.Principal(id: "ann"), "bob-token": MCPServer.Principal(id: "bob")][token]
        }
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(transport), authorization: authorization)
        let arguments: [String: Any] = ["item": "cheer", "quantity": 2]
        let first = await mcp.handle(http(request(27, "tools/call", ["name": "purchase", "arguments": arguments]), method: "tools/call", name: "purchase", token: "ann-token"))
        let state = try #require((try object(first.body)["result"] as? [String: Any])?["requestState"] as? String)
        let retry = request(28, "tools/call", ["name": "purchase", "arguments": arguments, "requestState": state,
                                               "inputResponses": ["confirm": ["action": "accept", "content": ["confirm": true]]]])
        let bob = await mcp.handle(http(retry, method: "tools/call", name: "purchase", token: "bob-token"))
        #expect((try object(bob.body)["error"] as? [String: Any])?["message"] as? String == "Invalid params: the requestState is refused: it was given to another caller; nothing was sent")
        #expect(transport.requests.isEmpty)
        let ann = await mcp.handle(http(retry, method: "tools/call", name: "purchase", token: "ann-token"))
        #expect((try object(ann.body)["result"] as? [String: Any])?["isError"] as? Bool == false)
        #expect(transport.requests.count == 1)
    }

    @Test func `without elicitation the configured rule decides, and an anonymous HTTP write is refused by default`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 90}"#)
        let call = request(30, "tools/call", ["name": "purchase", "arguments": ["item": "cheer", "quantity": 1]], elicitation: false)
        // Over HTTP with no authorization: refused, even from a client that could ask.
        let open = MCPServer(name: "bank", version: "2", tools: tools(transport))
        for body in [call, request(31, "tools/call", ["name": "purchase", "arguments": ["item": "cheer", "quantity": 1]])] {
            let response = await open.handle(http(body, method: "tools/call", name: "purchase"))
            let result = try #require(try object(response.body)["result"] as? [String: Any])
            #expect(result["isError"] as? Bool == true)
            #expect((((result["content"] as? [[String: Any]])?.first?["text"]) as? String)?.contains("This server sends no POST from a caller it has not identified; nothing was sent.") == true)
        }
        // Reads still work for anyone.
        let read = await open.handle(http(request(32, "tools/call", ["name": "balance", "arguments": [:]]), method: "tools/call", name: "balance"))
        #expect((try object(read.body)["result"] as? [String: Any])?["isError"] as? Bool == false)
        #expect(transport.requests.count == 1)
        // Locally (stdio), a client that cannot ask: sent by default, refused when the app says so.
        let sent = try #require(try object(await open.handle(call))["result"] as? [String: Any])
        #expect(sent["isError"] as? Bool == false)
        #expect(transport.requests.count == 2)
        let strict = MCPServer(name: "bank", version: "2", tools: tools(transport), confirmation: .init(whenClientCannotAsk: .refuse))
        let refused = try #require(try object(await strict.handle(call))["result"] as? [String: Any])
        #expect(refused["isError"] as? Bool == true)
        #expect(transport.requests.count == 2)
        // The app's own closure decides first.
        let declining = MCPServer(name: "bank", version: "2", tools: tools(transport, confirmation: { _ in false }))
        let declined = try #require(try object(await declining.handle(request(33, "tools/call", ["name": "purchase", "arguments": ["item": "cheer", "quantity": 1]])))["result"] as? [String: Any])
        #expect(declined["resultType"] as? String == "complete" && declined["isError"] as? Bool == true)
        #expect(transport.requests.count == 2)
    }

    // MARK: - Streamable HTTP headers

    @Test func `the Mcp-Method and Mcp-Name headers must match the body`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 5}"#)
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(transport))
        let call = request(40, "tools/call", ["name": "balance", "arguments": [:]])
        for (method, name, version, expected) in [
            (nil, "balance", current, "the Mcp-Method header is missing"),
            ("tools/list", "balance", current, "the Mcp-Method header value 'tools/list' does not match the body's method 'tools/call'"),
            ("tools/call", nil, current, "the Mcp-Name header is missing"),
            ("tools/call", "purchase", current, "the Mcp-Name header value 'purchase' does not match the body's name 'balance'"),
            ("tools/call", "balance", nil, "the MCP-Protocol-Version header is missing; the body's _meta says 2026-07-28"),
            ("tools/call", "balance", "2025-11-25", "the MCP-Protocol-Version header says 2025-11-25, the body's _meta 2026-07-28"),
        ] as [(String?, String?, String?, String)] {
            let response = await mcp.handle(http(call, method: method, name: name, version: version))
            #expect(response.status == 400)
            let error = try #require(try object(response.body)["error"] as? [String: Any])
            #expect(error["code"] as? Int == -32020)
            #expect(error["message"] as? String == "Header mismatch: " + expected)
        }
        #expect(transport.requests.isEmpty)
        let encoded = await mcp.handle(http(call, method: "tools/call", name: "=?base64?YmFsYW5jZQ==?="))
        #expect(encoded.status == 200)
        #expect(transport.requests.count == 1)
    }

    // MARK: - Authorization

    @Test func `without a token, or with a refused one, the answer is 401 naming the metadata document`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 5}"#)
        let authorization = MCPServer.Authorization(resource: URL(string: "https://mcp.bank.test/mcp")!, authorizationServers: [URL(string: "https://auth.bank.test")!],
                                                    requiredScopes: ["purchase": ["bank:write"]]) { token in
            token == "good" ? MCPServer.Principal(id: "ann", scopes: ["bank:read"]) : nil
        }
        let mcp = MCPServer(name: "bank", version: "2", tools: tools(transport), authorization: authorization)
        let list = request(50, "tools/list")
        let missing = await mcp.handle(http(list, method: "tools/list"))
        #expect(missing.status == 401)
        #expect(missing.value(forHeader: "WWW-Authenticate") == #"Bearer resource_metadata="https://mcp.bank.test/.well-known/oauth-protected-resource/mcp""#)
        let refused = await mcp.handle(http(list, method: "tools/list", token: "bad"))
        #expect(refused.status == 401)
        #expect(refused.value(forHeader: "WWW-Authenticate") == #"Bearer error="invalid_token", resource_metadata="https://mcp.bank.test/.well-known/oauth-protected-resource/mcp""#)
        let listed = await mcp.handle(http(list, method: "tools/list", token: "good"))
        #expect(listed.status == 200)
        #expect((try object(listed.body)["result"] as? [String: Any])?["cacheScope"] as? String == "private")

        let write = request(51, "tools/call", ["name": "purchase", "arguments": ["item": "cheer", "quantity": 1]])
        let forbidden = await mcp.handle(http(write, method: "tools/call", name: "purchase", token: "good"))
        #expect(forbidden.status == 403)
        #expect(forbidden.value(forHeader: "WWW-Authenticate") == #"Bearer error="insufficient_scope", scope="bank:write", resource_metadata="https://mcp.bank.test/.well-known/oauth-protected-resource/mcp""#)
        #expect(transport.requests.isEmpty)

        #expect(authorization.metadataPath == "/.well-known/oauth-protected-resource/mcp")
        let metadata = authorization.metadataResponse()
        #expect(metadata.status == 200)
        #expect(String(decoding: metadata.body, as: UTF8.self) == #"{"resource":"https://mcp.bank.test/mcp","authorization_servers":["https://auth.bank.test"],"bearer_methods_supported":["header"]}"#)
    }

    @Test func `the client's token never reaches the API, and the principal reaches the app's middleware`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 5}"#)
        var upstream = APIServer.stub(transport)
        upstream.middlewares = [HTTPBearerAuthorization { "upstream-for-" + (MCPServer.Principal.current?.id ?? "nobody") }]
        let authorization = MCPServer.Authorization(resource: URL(string: "https://mcp.bank.test/mcp")!, authorizationServers: []) { token in
            token == "mcp-client-token" ? MCPServer.Principal(id: "ann") : nil
        }
        let mcp = MCPServer(name: "bank", version: "2", tools: EndpointTools([Balance.self], on: upstream), authorization: authorization)
        let response = await mcp.handle(http(request(60, "tools/call", ["name": "balance", "arguments": [:]]), method: "tools/call", name: "balance", token: "mcp-client-token"))
        #expect(response.status == 200)
        let sent = try #require(transport.requests.first)
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer upstream-for-ann")
        let everything = (sent.allHTTPHeaderFields ?? [:]).map { "\($0.key): \($0.value)" }.joined(separator: "\n") + (sent.url?.absoluteString ?? "")
        #expect(!everything.contains("mcp-client-token"))
    }
}
