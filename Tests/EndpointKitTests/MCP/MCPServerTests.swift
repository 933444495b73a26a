@testable import EndpointKit
import EndpointKitContract
import EndpointKitMCP
import EndpointKitTools
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct UserCheers: Endpoint, Decodable, Documented {
    var endpoint: Restful { Restful(.get, "users/{userId}/cheers") }
    let userId: Int
    struct ReturnPayloadType: Codable, Sendable { let total: Int; let note: String? }
    static var documentation: Documentation { Documentation(summary: "Count a user's cheers") }
}

private struct SendCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "cheers") }
    let amount: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct Tags: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "tags") }
    typealias ReturnPayloadType = [String]
}

/// A transport that holds every request until the test lets it go, counting what it received.
private final class HeldTransport: HTTPTransport, Sendable {
    let arrived = AsyncStream<Void>.makeStream()
    let received = Locked(0)

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        received.withLock { $0 += 1 }
        arrived.continuation.yield()
        try await Task.sleep(for: .seconds(600))  // until cancelled
        throw CancellationError()
    }
}

private func server(_ endpoints: [any (Endpoint & Decodable).Type] = [UserCheers.self, SendCheer.self, Tags.self],
                    transport: any HTTPTransport = RecordingTransport(body: #"{"total": 3, "note": null}"#), pageSize: Int = 100) -> MCPServer {
    MCPServer(name: "cheers", version: "1.2", tools: EndpointTools(endpoints, on: .stub(transport)), pageSize: pageSize)
}

private func ask(_ server: MCPServer, _ message: String) async throws -> [String: Any]? {
    guard let reply = await server.handle(Data(message.utf8)) else { return nil }
    return try #require(try JSONSerialization.jsonObject(with: reply) as? [String: Any])
}

@Suite struct MCPServerTests {
    @Test func `initialize agrees on a version and names the server`() async throws {
        let mcp = server()
        let reply = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#))
        let result = try #require(reply["result"] as? [String: Any])
        #expect(reply["id"] as? Int == 1)
        #expect(result["protocolVersion"] as? String == "2025-06-18")
        #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "cheers")
        #expect((result["capabilities"] as? [String: Any])?["tools"] != nil)
        let newer = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2099-01-01"}}"#))
        #expect((newer["result"] as? [String: Any])?["protocolVersion"] as? String == MCPServer.supportedVersions[0])
        #expect(try await ask(mcp, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect((try await ask(mcp, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#))?["result"] as? [String: Any] != nil)
    }

    @Test func `tools are listed a page at a time with an output schema for object payloads`() async throws {
        let mcp = server(pageSize: 2)
        let first = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)?["result"] as? [String: Any])
        let tools = try #require(first["tools"] as? [[String: Any]])
        #expect(tools.map { $0["name"] as? String } == ["user_cheers", "send_cheer"])
        #expect(first["nextCursor"] as? String == "2")
        let output = try #require(tools[0]["outputSchema"] as? [String: Any])
        #expect(output["type"] as? String == "object")
        #expect((output["required"] as? [String]) == ["total"])
        #expect(tools[1]["outputSchema"] == nil)  // EmptyPayload
        let second = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"2"}}"#)?["result"] as? [String: Any])
        #expect((second["tools"] as? [[String: Any]])?.map { $0["name"] as? String } == ["tags"])
        #expect(second["nextCursor"] == nil)
        #expect(((second["tools"] as? [[String: Any]])?.first)?["outputSchema"] == nil)  // a list is not structured content
        let bad = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"zz"}}"#))
        #expect((bad["error"] as? [String: Any])?["code"] as? Int == -32602)
    }

    @Test func `a call answers text and structured content, with the exact request sent`() async throws {
        let transport = RecordingTransport(body: #"{"total": 3, "note": null}"#)
        let mcp = server(transport: transport)
        let reply = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"user_cheers","arguments":{"user_id":42}}}"#))
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["isError"] as? Bool == false)
        let content = try #require((result["content"] as? [[String: Any]])?.first)
        #expect(content["type"] as? String == "text")
        #expect(content["text"] as? String == #"{"total":3}"#)  // the payload as declared, re-encoded
        #expect((result["structuredContent"] as? [String: Any])?["total"] as? Int == 3)
        #expect(try transport.request.url?.absoluteString == "https://api.example.com/api/v1/users/42/cheers")
    }

    @Test func `bad arguments are an error result the model can read, and nothing is sent`() async throws {
        let transport = RecordingTransport()
        let mcp = server(transport: transport)
        let reply = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"user_cheers","arguments":{"user_id":"forty-two"}}}"#))
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["isError"] as? Bool == true)
        #expect(result["structuredContent"] == nil)
        let text = try #require((result["content"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(text.contains("user_id"))
        #expect(transport.requests.isEmpty)
    }

    @Test func `protocol errors: unknown tool, unknown method, bad JSON, not JSON-RPC`() async throws {
        let mcp = server()
        func code(_ message: String) async throws -> Int? {
            ((try await ask(mcp, message))?["error"] as? [String: Any])?["code"] as? Int
        }
        #expect(try await code(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#) == -32602)
        #expect(try await code(#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#) == -32601)
        #expect(try await code(#"{"jsonrpc":"2.0","id":1,"method":"#) == -32700)
        #expect(try await code(#"{"id":1,"method":"ping"}"#) == -32600)
        #expect(try await code(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#) == -32600)
        #expect(try await ask(mcp, #"{"jsonrpc":"2.0","method":"notifications/unknown"}"#) == nil)
    }

    @Test(.timeLimit(.minutes(1))) func `a cancelled call gets no answer and sends nothing more`() async throws {
        let transport = HeldTransport()
        let mcp = server(transport: transport)
        async let reply = mcp.handle(Data(#"{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"user_cheers","arguments":{"user_id":1}}}"#.utf8))
        var arrivals = transport.arrived.stream.makeAsyncIterator()
        await arrivals.next()  // the request is at the transport
        #expect(try await ask(mcp, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"user"}}"#) == nil)
        #expect(await reply == nil)
        #expect(transport.received.value == 1)  // no retry, nothing after the cancellation
        // The server still answers.
        #expect((try await ask(mcp, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#))?["result"] != nil)
    }

    @Test func `stdio carries one message per line and only messages`() async throws {
        let mcp = server()
        let input = Pipe(), output = Pipe()
        let running = Task { try await mcp.run(input: input.fileHandleForReading, output: output.fileHandleForWriting) }
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "",
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tags","arguments":{}}}"#,
        ]
        try input.fileHandleForWriting.write(contentsOf: Data((requests.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        try await running.value
        try output.fileHandleForWriting.close()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let ids = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["id"] as? Int }
        #expect(ids.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 2])  // two answers, nothing else
    }
}
