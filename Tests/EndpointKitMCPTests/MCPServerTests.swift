@testable import EndpointKit
import EndpointKitTestSupport
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

/// A write that counts how often it is encoded: once for each request built of it, and once when
/// its tool is described.
private struct CountedCheer: Endpoint, Decodable {
    nonisolated static let encodings = Locked(0)
    var endpoint: Restful { Restful(.post, "cheers") }
    let amount: Int
    typealias ReturnPayloadType = EmptyPayload

    func encode(to encoder: any Encoder) throws {
        Self.encodings.withLock { $0 += 1 }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
    }
}

private struct SendCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "cheers") }
    let amount: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct ReplaceCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.put, "cheers/{id}") }
    let id: Int
    let amount: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct AmendCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.patch, "cheers/{id}") }
    let id: Int
    let amount: Int?
    typealias ReturnPayloadType = EmptyPayload
}

private struct RemoveCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.delete, "cheers/{id}") }
    let id: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct Tags: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "tags") }
    typealias ReturnPayloadType = [String]
}

/// A transport that holds every request until the test lets it go, counting what it received.
private final class HeldTransport: WholeRequestTransport, Sendable {
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
        // `initialize` is of the revisions before 2026-07-28: it agrees the newest of those.
        #expect((newer["result"] as? [String: Any])?["protocolVersion"] as? String == "2025-11-25")
        #expect(try await ask(mcp, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect((try await ask(mcp, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#))?["result"] as? [String: Any] != nil)
    }

    @Test func `tools are listed a page at a time with an output schema for every structured payload`() async throws {
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
        // A list is structured content wrapped in an object, as MCP's output schemas are objects.
        let wrapped = try #require(((second["tools"] as? [[String: Any]])?.first)?["outputSchema"] as? [String: Any])
        #expect(String(decoding: try JSONSerialization.data(withJSONObject: wrapped, options: .sortedKeys), as: UTF8.self)
            == #"{"properties":{"result":{"items":{"type":"string"},"type":"array"}},"required":["result"],"type":"object"}"#)
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

    /// A write that needs no confirmation (a client that cannot ask, and a policy that sends) is
    /// not built once more to find that out, and its tool is described once, not on every build:
    /// five encodings a call before, two now (the tool's check of the arguments, and the call).
    @Test func `a write that needs no confirmation is not built again to ask, and its tool is described once`() async throws {
        let transport = RecordingTransport()
        let mcp = server([CountedCheer.self], transport: transport)
        let call = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"counted_cheer","arguments":{"amount":5}}}"#
        let first = CountedCheer.encodings.value
        _ = try #require(try await ask(mcp, call))
        let second = CountedCheer.encodings.value
        _ = try #require(try await ask(mcp, call.replacingOccurrences(of: #""id":1"#, with: #""id":2"#)))
        #expect(second - first == 3)  // the description, the check, the call
        #expect(CountedCheer.encodings.value - second == 2)  // the check, the call
        #expect(transport.requests.count == 2)
        #expect(transport.requests.last?.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"amount":5}"#)
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
        #expect(try await code(#"[]"#) == -32600)
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
        // Kept from the children other tests start meanwhile: a copy of `output`'s end in a child
        // that lives on would keep the read below from ever ending.
        for pipe in [input, output] {
            _ = fcntl(pipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
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

    // MARK: - What the official SDK and the specification demand

    @Test func `a list payload is structured content under result, as its output schema says`() async throws {
        let mcp = server(transport: RecordingTransport(body: #"["a","b"]"#))
        let reply = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tags","arguments":{}}}"#))
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["isError"] as? Bool == false)
        #expect((result["structuredContent"] as? [String: Any])?["result"] as? [String] == ["a", "b"])
        #expect((result["content"] as? [[String: Any]])?.first?["text"] as? String == #"["a","b"]"#)
    }

    @Test func `an object cut at the size limit is an error result without structured content, never null`() async throws {
        let note = String(repeating: "n", count: 2_000)
        let transport = RecordingTransport(body: #"{"total": 3, "note": "\#(note)"}"#)
        let mcp = MCPServer(name: "cheers", version: "1", tools: EndpointTools([UserCheers.self], on: .stub(transport), maximumResultSize: 512))
        let reply = try #require(await mcp.handle(Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"user_cheers","arguments":{"user_id":1}}}"#.utf8)))
        let text = String(decoding: reply, as: UTF8.self)
        #expect(!text.contains("structuredContent"))
        let result = try #require((try JSONSerialization.jsonObject(with: reply) as? [String: Any])?["result"] as? [String: Any])
        #expect(result["isError"] as? Bool == true)
        let content = try #require(result["content"] as? [[String: Any]])
        #expect((content[0]["text"] as? String)?.hasPrefix(#"{"truncated":true,"total_bytes":"#) == true)
        #expect(content[1]["text"] as? String == "The answer was cut at this server's result size limit (512 bytes), so it has no structured form. Ask for less: a smaller page, or a narrower query.")
    }

    @Test func `arguments with a key twice are an error result naming the field, under the request's id`() async throws {
        let transport = RecordingTransport()
        let mcp = server(transport: transport)
        let reply = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":"d1","method":"tools/call","params":{"name":"user_cheers","arguments":{"user_id":1,"user_id":2}}}"#))
        #expect(reply["id"] as? String == "d1")
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["isError"] as? Bool == true)
        let text = try #require((result["content"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(text.contains(#"the field \"user_id\" appears twice"#))
        #expect(transport.requests.isEmpty)
        // A key twice in the envelope is the client's mistake, not the model's.
        let envelope = try #require(try await ask(mcp, #"{"jsonrpc":"2.0","id":2,"method":"ping","method":"tools/list"}"#))
        #expect((envelope["error"] as? [String: Any])?["code"] as? Int == -32600)
        #expect(envelope["id"] as? Int == 2)
    }

    @Test func `invalid UTF-8 is refused, never sent on repaired`() async throws {
        let transport = RecordingTransport()
        let mcp = server(transport: transport)
        var message = Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"user_cheers","arguments":{"user_id":1,"x":""#.utf8)
        message.append(contentsOf: [0xC3, 0x28])
        message.append(contentsOf: Data(#""}}}"#.utf8))
        let reply = try #require(await mcp.handle(message))
        let object = try #require(try JSONSerialization.jsonObject(with: reply) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect((object["error"] as? [String: Any])?["message"] as? String == "Parse error: the message is not valid UTF-8")
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: ["null", "true", "{}", "[]", "1.5", "1e3"])
    func `an id that is not a string or an integer is an invalid request`(id: String) async throws {
        let reply = try #require(try await ask(server(), #"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#))
        #expect((reply["error"] as? [String: Any])?["code"] as? Int == -32600)
        #expect(reply["id"] is NSNull)
    }

    @Test func `a batch is answered in one array, in order, without its notifications`() async throws {
        let mcp = server()
        // Batches are 2025-03-26's: the client agreed that version first.
        _ = await mcp.handle(Data(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.utf8))
        let reply = try #require(await mcp.handle(Data(#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"nope"}]"#.utf8)))
        let replies = try #require(try JSONSerialization.jsonObject(with: reply) as? [[String: Any]])
        #expect(replies.count == 2)
        #expect(replies[0]["id"] as? Int == 1)
        #expect(replies[0]["result"] != nil)
        #expect(replies[1]["id"] as? String == "b")
        #expect((replies[1]["error"] as? [String: Any])?["code"] as? Int == -32601)
        #expect(await mcp.handle(Data(#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#.utf8)) == nil)
    }

    @Test func `annotations follow the method, and input schemas refuse unknown fields as the validator does`() async throws {
        let tools = EndpointTools([UserCheers.self, SendCheer.self, ReplaceCheer.self, AmendCheer.self, RemoveCheer.self], on: .stub(RecordingTransport()))
        var hints: [String: [String: Bool]] = [:]
        for definition in try tools.definitions(for: .mcp) {
            let json = try #require(try JSONSerialization.jsonObject(with: definition.json.json) as? [String: Any])
            let annotations = try #require(json["annotations"] as? [String: Any])
            hints[definition.name] = annotations.compactMapValues { $0 as? Bool }
            #expect((json["inputSchema"] as? [String: Any])?["additionalProperties"] as? Bool == false)
        }
        #expect(hints["user_cheers"] == ["readOnlyHint": true, "openWorldHint": true])
        #expect(hints["send_cheer"] == ["readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true])
        #expect(hints["replace_cheer"] == ["readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true])
        #expect(hints["amend_cheer"] == ["readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true])
        #expect(hints["remove_cheer"] == ["readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true])
        // The validator refuses what the schema now says it refuses.
        let result = try await tools.result(name: "replace_cheer", arguments: #"{"id":1,"amount":2,"colour":"red"}"#)
        #expect(result.isError)
        #expect(result.text.contains(#"unknown field \"colour\""#))
    }
}
