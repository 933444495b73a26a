import Foundation
import HTTPTypes
import Hummingbird
import Logging
import EndpointKitMCP

/// A local stand-in for the demo's APIs: reiterate.app's cheer endpoints and GitHub's branch list,
/// served by Hummingbird on 127.0.0.1 (a free port). Demo calls it through EndpointKit, and
/// OpenAPIRoundTrip through a client that swift-openapi-generator made from Demo's OpenAPI document.
public enum DemoServer {
    /// Starts the server, runs `body` with its origin once it listens, then stops the server.
    ///
    /// With `mcp`, the server also answers MCP's Streamable HTTP at `/mcp`: each request, whatever
    /// its method, goes to `mcp` (`MCPServer.handle(_:)` with an `MCPServer.HTTPRequest`), whose
    /// status, header fields and body are sent back as they are; with `mcpMetadata`, its Protected
    /// Resource Metadata document is served at `/.well-known/oauth-protected-resource/mcp`.
    public static func withServer(mcp: (@Sendable (MCPServer.HTTPRequest) async -> MCPServer.HTTPResponse)? = nil,
                                  mcpMetadata: (@Sendable () async -> MCPServer.HTTPResponse?)? = nil,
                                  _ body: (URL) async throws -> Void) async throws {
        var logger = Logger(label: "demo-server")
        logger.logLevel = .critical
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router(mcp: mcp, mcpMetadata: mcpMetadata),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            for await port in ports {
                try await body(URL(string: "http://127.0.0.1:\(port)")!)
            }
            group.cancelAll()
        }
    }

    private static func router(mcp: (@Sendable (MCPServer.HTTPRequest) async -> MCPServer.HTTPResponse)?,
                               mcpMetadata: (@Sendable () async -> MCPServer.HTTPResponse?)?) -> Router<BasicRequestContext> {
        let router = Router()
        if let mcpMetadata {
            // The Protected Resource Metadata document (RFC 9728) that the 401s of /mcp name.
            router.get("/.well-known/oauth-protected-resource/mcp") { _, _ -> Response in
                guard let document = await mcpMetadata() else { return Response(status: .notFound) }
                var headers = HTTPFields()
                for (name, value) in document.headers {
                    if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
                }
                return Response(status: .init(code: document.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: document.body)))
            }
        }
        if let mcp {
            // Every method reaches the MCP server, which applies Streamable HTTP's rules (Origin,
            // MCP-Protocol-Version, Accept, Content-Type) and answers 405 to all but POST.
            for method in [HTTPRequest.Method.post, .get, .delete, .put, .patch] {
                router.on("/mcp", method: method) { request, _ -> Response in
                    let body = try await request.body.collect(upTo: MCPServer.maximumMessageSize)
                    let reply = await mcp(MCPServer.HTTPRequest(
                        method: request.method.rawValue,
                        headers: request.headers.map { ($0.name.rawName, $0.value) },
                        body: Data(buffer: body)))
                    var headers = HTTPFields()
                    for (name, value) in reply.headers {
                        if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
                    }
                    return Response(status: .init(code: reply.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
                }
            }
        }
        router.post("/api/v2/purchase_cheer") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 * 1024)
            let fields = try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any]
            guard let identifier = fields?["identifier"] as? String, !identifier.isEmpty,
                  fields?["transaction_id"] is NSNumber
            else {
                return json(#"{"error":"identifier and transaction_id are required"}"#, status: .unprocessableContent)
            }
            return json(#"{"balance": 200}"#)
        }
        router.get("/api/v1/cheer_history") { request, _ -> Response in
            guard let userID = request.uri.queryParameters.get("user_id", as: Int.self) else {
                return json(#"{"error":"user_id is required"}"#, status: .badRequest)
            }
            return json("""
                {"history": [
                  {"creator": "user\(userID)", "amount": 100, "product": "cheer.large",
                   "date": "2024-05-01T12:30:00Z",
                   "comments": [{"signature": "Ann", "body": "Keep going!"}, {"body": "🎉"}]},
                  {"creator": "user\(userID)", "amount": 25, "product": "cheer.small",
                   "date": "2024-05-02T08:15:30.250Z"}
                ]}
                """)
        }
        router.get("/repos/:owner/:repo/branches") { request, context -> Response in
            let owner = context.parameters.get("owner") ?? ""
            let repo = context.parameters.get("repo") ?? ""
            let count = min(request.uri.queryParameters.get("per_page", as: Int.self) ?? 30, 100)
            let names = ["main", "release/6.0", "release/6.1"] + (0..<max(0, count - 3)).map { "feature-\($0)" }
            let branches = names.prefix(count).enumerated().map { index, name in
                let sha = String(repeating: String(format: "%02x", index), count: 20)
                let protectionURL = index < 3
                    ? #""https://api.github.com/repos/\#(owner)/\#(repo)/branches/\#(name)/protection""#
                    : "null"
                return #"{"name":"\#(name)","commit":{"sha":"\#(sha)","url":"https://api.github.com/repos/\#(owner)/\#(repo)/commits/\#(sha)"},"protected":\#(index < 3),"protection_url":\#(protectionURL)}"#
            }
            var response = json("[" + branches.joined(separator: ",") + "]")
            response.headers[HTTPField.Name("Link")!] = #"<https://api.github.com/repositories/44838949/branches?page=2>; rel="next""#
            return response
        }
        router.post("/api/v1/albums/:albumId/photos") { request, context -> Response in
            let body = try await request.body.collect(upTo: 16 * 1024 * 1024)
            let type = request.headers[.contentType] ?? ""
            guard type.hasPrefix("multipart/form-data; boundary=") else {
                return json(#"{"error":{"code":"bad_type","message":"expected multipart/form-data"}}"#, status: .unsupportedMediaType)
            }
            let album = context.parameters.get("albumId") ?? "?"
            return json(#"{"album": "\#(album)", "received_bytes": \#(body.readableBytes)}"#, status: .created)
        }
        // A canned answer streamed word by word, as an OpenAI-compatible server streams a completion.
        router.post("/api/v1/chat/completions") { _, _ -> Response in
            let words = ["EndpointKit", " streams", " each", " event", " as", " soon", " as", " it", " arrives", "."]
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    for word in words {
                        let chunk = #"{"choices":[{"index":0,"delta":{"content":"\#(word)"}}]}"#
                        try await writer.write(ByteBuffer(string: "data: \(chunk)\n\n"))
                        try await Task.sleep(nanoseconds: 60_000_000)
                    }
                    try await writer.write(ByteBuffer(string: "data: [DONE]\n\n"))
                    try await writer.finish(nil)
                })
        }
        // An OpenAI-compatible chat endpoint whose "model" follows a script, for the agent loop:
        // a first tool call with a wrong argument, a corrected one once the tool reports the error,
        // then an answer quoting what the tool returned.
        router.post("/api/v1/agent/chat/completions") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard let chat = try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any],
                  let messages = chat["messages"] as? [[String: Any]],
                  let tools = chat["tools"] as? [[String: Any]],
                  tools.contains(where: { ($0["function"] as? [String: Any])?["name"] as? String == "cheer_history" })
            else {
                return json(#"{"error":"send messages and the cheer_history tool"}"#, status: .badRequest)
            }
            let toolReplies = messages.filter { $0["role"] as? String == "tool" }
            func toolCall(_ id: String, _ arguments: String) -> Response {
                let call: [String: Any] = ["id": id, "type": "function", "function": ["name": "cheer_history", "arguments": arguments]]
                let reply: [String: Any] = ["choices": [["index": 0, "finish_reason": "tool_calls",
                                                         "message": ["role": "assistant", "content": NSNull(), "tool_calls": [call]]]]]
                return json(String(decoding: try! JSONSerialization.data(withJSONObject: reply), as: UTF8.self))
            }
            guard let last = toolReplies.last?["content"] as? String else {
                return toolCall("call_1", #"{"user": 42}"#)  // the wrong field name, as models do
            }
            guard let result = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], result["error"] == nil,
                  let history = result["history"] as? [[String: Any]] else {
                return toolCall("call_2", #"{"user_id": 42}"#)  // corrected after reading the error
            }
            let items = history.map { "\($0["amount"] ?? "?") × \($0["product"] ?? "?")" }
            let answer = "Last week you cheered \(history.count) times: \(items.joined(separator: " and "))."
            let reply: [String: Any] = ["choices": [["index": 0, "finish_reason": "stop", "message": ["role": "assistant", "content": answer]]]]
            return json(String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self))
        }
        // 4 MiB in 64 KiB pieces, paced so that the progress bar has something to show.
        router.get("/api/v1/reports/:id/export") { _, _ -> Response in
            let piece = ByteBuffer(repeating: UInt8(ascii: "r"), count: 64 << 10)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: String(64 * piece.readableBytes)],
                body: ResponseBody(contentLength: 64 * piece.readableBytes) { writer in
                    for _ in 0..<64 {
                        try await writer.write(piece)
                        try await Task.sleep(nanoseconds: 10_000_000)
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
