@testable import EndpointKit
import EndpointKitTestSupport
import EndpointKitMCP
import EndpointKitTools
import Foundation
import Testing

private struct Balance: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "balance") }
    struct ReturnPayloadType: Codable, Sendable { let balance: Int }
}

private let ping = Data(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#.utf8)
private let json = [(name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json, text/event-stream")]

private func mcp(allowing origins: [String] = MCPServer.loopbackOrigins, transport: RecordingTransport = RecordingTransport(body: #"{"balance": 5}"#)) -> MCPServer {
    MCPServer(name: "bank", version: "1", tools: EndpointTools([Balance.self], on: .stub(transport)), allowedOrigins: origins)
}

private func post(_ server: MCPServer, headers: [(name: String, value: String)] = json, body: Data = ping) async -> MCPServer.HTTPResponse {
    await server.handle(MCPServer.HTTPRequest(method: "POST", headers: headers, body: body))
}

/// The JSON-RPC error message in a refusal's body.
private func message(_ response: MCPServer.HTTPResponse) throws -> String {
    let reply = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    #expect(reply["id"] is NSNull)
    let error = try #require(reply["error"] as? [String: Any])
    #expect(error["code"] as? Int == -32600)
    return try #require(error["message"] as? String)
}

@Suite struct MCPStreamableHTTPTests {
    @Test func `a request is answered as JSON with status 200`() async throws {
        let response = await post(mcp())
        #expect(response.status == 200)
        #expect(response.value(forHeader: "content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"jsonrpc":"2.0","id":7,"result":{}}"#)
    }

    @Test func `a notification is accepted with no body`() async throws {
        let response = await post(mcp(), body: Data(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8))
        #expect(response.status == 202)
        #expect(response.body.isEmpty)
        #expect(response.headers.isEmpty)
    }

    @Test func `a page from another origin is forbidden and nothing reaches the API`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 5}"#)
        let call = Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"balance","arguments":{}}}"#.utf8)
        let response = await post(mcp(transport: transport), headers: json + [("Origin", "http://attacker.example")], body: call)
        #expect(response.status == 403)
        #expect(try message(response) == "Invalid Request: the Origin http://attacker.example is not one this server allows")
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: ["http://localhost:5173", "http://127.0.0.1:80", "HTTP://LOCALHOST:3000", "http://[::1]:8080"])
    func `pages on this machine are served by default`(origin: String) async throws {
        #expect(await post(mcp(), headers: json + [("origin", origin)]).status == 200)
    }

    @Test(arguments: ["http://localhost", "http://localhost:80x", "http://localhost:1/", "http://localhost.attacker.example:80",
                      "http://localhost:80@attacker.example", "https://localhost:443", "null", "http://127.0.0.1:123456"])
    func `origins that only look like this machine are forbidden`(origin: String) async throws {
        #expect(await post(mcp(), headers: json + [("Origin", origin)]).status == 403)
    }

    @Test func `configured origins replace the default and two Origin fields are forbidden`() async throws {
        let server = mcp(allowing: ["https://app.example"])
        #expect(await post(server, headers: json + [("Origin", "https://app.example")]).status == 200)
        #expect(await post(server, headers: json + [("Origin", "http://localhost:5173")]).status == 403)
        #expect(await post(server, headers: json + [("Origin", "https://app.example"), ("Origin", "https://app.example")]).status == 403)
        #expect(await post(server, headers: json).status == 200)  // no Origin: not a browser
    }

    @Test(arguments: ["GET", "DELETE", "PUT", "OPTIONS"])
    func `methods other than POST are not allowed`(method: String) async throws {
        let response = await mcp().handle(MCPServer.HTTPRequest(method: method, headers: [("Accept", "text/event-stream")], body: Data()))
        #expect(response.status == 405)
        #expect(response.value(forHeader: "Allow") == "POST")
        #expect(try message(response) == "Invalid Request: \(method) is not served here: send each message as a POST")
    }

    @Test func `an unsupported protocol version is a bad request and supported ones are served`() async throws {
        let refused = await post(mcp(), headers: json + [("MCP-Protocol-Version", "2099-01-01")])
        #expect(refused.status == 400)
        // UnsupportedProtocolVersionError (2026-07-28), naming the versions this server speaks.
        let reply = try #require(try JSONSerialization.jsonObject(with: refused.body) as? [String: Any])
        let error = try #require(reply["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32022)
        #expect(error["message"] as? String == "Unsupported protocol version: the MCP-Protocol-Version 2099-01-01 is not one of 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05")
        #expect((error["data"] as? [String: Any])?["supported"] as? [String] == MCPServer.supportedVersions)
        for version in MCPServer.supportedVersions where version != "2026-07-28" {
            #expect(await post(mcp(), headers: json + [("mcp-protocol-version", version)]).status == 200)
        }
        // A 2026-07-28 request carries its version in _meta too; a bare ping is not one.
        #expect(await post(mcp(), headers: json + [("mcp-protocol-version", "2026-07-28")]).status == 400)
        #expect(await post(mcp(), headers: json + [("MCP-Protocol-Version", "2025-06-18"), ("MCP-Protocol-Version", "2025-03-26")]).status == 400)
    }

    @Test func `Accept must admit JSON`() async throws {
        let refused = await post(mcp(), headers: [("Content-Type", "application/json"), ("Accept", "text/event-stream")])
        #expect(refused.status == 406)
        #expect(try message(refused) == "Invalid Request: the Accept text/event-stream does not admit application/json, the only form of this server's replies")
        #expect(await post(mcp(), headers: [("Content-Type", "application/json"), ("Accept", "application/json;q=0, text/event-stream")]).status == 406)
        for accept in ["*/*", "application/*", "text/event-stream,application/json;q=0.5"] {
            #expect(await post(mcp(), headers: [("Content-Type", "application/json"), ("Accept", accept)]).status == 200)
        }
        #expect(await post(mcp(), headers: [("Content-Type", "application/json")]).status == 200)  // no Accept: anything
    }

    @Test func `Content-Type must be JSON`() async throws {
        let refused = await post(mcp(), headers: [("Content-Type", "text/plain")])
        #expect(refused.status == 415)
        #expect(try message(refused) == "Invalid Request: the Content-Type must be application/json, not text/plain")
        #expect(await post(mcp(), headers: []).status == 415)
        #expect(await post(mcp(), headers: [("content-type", "Application/JSON; charset=utf-8")]).status == 200)
    }

    @Test func `a body that is not JSON-RPC is a bad request with the parse error`() async throws {
        let response = await post(mcp(), body: Data("{not json".utf8))
        #expect(response.status == 400)
        let reply = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect((reply["error"] as? [String: Any])?["code"] as? Int == -32700)
        // A JSON-RPC error for a request with an id is still an answer: 200.
        let unknown = await post(mcp(), body: Data(#"{"jsonrpc":"2.0","id":3,"method":"nope"}"#.utf8))
        #expect(unknown.status == 200)
    }

    @Test func `a tool call over HTTP reaches the API once and answers structured content`() async throws {
        let transport = RecordingTransport(body: #"{"balance": 5}"#)
        let call = Data(#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"balance","arguments":{}}}"#.utf8)
        let response = await post(mcp(transport: transport), headers: json + [("Origin", "http://localhost:3000"), ("MCP-Protocol-Version", "2025-11-25")], body: call)
        #expect(response.status == 200)
        let reply = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["structuredContent"] as? [String: Int] == ["balance": 5])
        #expect(transport.requests.count == 1)
    }
}
