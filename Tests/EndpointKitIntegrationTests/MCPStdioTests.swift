// The MCP client and the server run as child processes. The server is this test binary run again,
// which works where the tests are an executable of their own (Linux); on macOS they are a bundle
// that xctest loads, relaunched with another command line (not written: it cannot be run here).
#if os(Linux)
import EndpointKit
import EndpointKitMCP
import EndpointKitTools
import Foundation
import Testing

/// The tools the MCP server offers in these tests: calls to the loopback server, whose echo shows
/// exactly what each call sent.
private struct EchoQuery: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "echo/query") }
    let term: String
    let limit: Int?
    typealias ReturnPayloadType = Echo
}

private struct EchoCreate: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "echo/create") }
    let name: String
    typealias ReturnPayloadType = Echo
}

private struct NumberPage: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "pages/number") }
    let page: Int
    typealias ReturnPayloadType = [Int]
}

private struct SlowCall: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "slow") }
    let seconds: Int
    let key: String
    struct ReturnPayloadType: Decodable, Sendable { let slept: Double }
}

/// EndpointKit's MCP server driven over stdio by the official MCP Python SDK: the server is this
/// test binary run again for the one child test below.
@Suite struct MCPStdioTests {
    static let originVariable = "ENDPOINTKIT_MCP_ORIGIN"

    /// Not a test of its own: in the child process (the variable set), the MCP server on standard
    /// input and output; elsewhere it returns at once.
    @Test func `MCP stdio child`() async throws {
        guard let origin = ProcessInfo.processInfo.environment[Self.originVariable].flatMap(URL.init(string:)) else { return }
        let server = APIServer(origin: origin, pathPrefix: "", transport: IntegrationTransport.shared, decoder: JSONDecoder())
        let tools = EndpointTools([EchoQuery.self, EchoCreate.self, SlowCall.self, NumberPage.self], on: server)
        try await MCPServer(name: "loopback", version: "1.0", tools: tools).run()
    }

    @Test(.timeLimit(.minutes(5))) func `the official MCP client lists, calls and cancels over stdio`() async throws {
        let loopback = try await LoopbackServer.ready()
        let key = UUID().uuidString.lowercased()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Server/mcp_client.py")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.originVariable] = loopback.origin.absoluteString
        let (data, problems) = try await onOwnThread { [environment] in
            let process = Process()
            process.executableURL = try PythonEnvironment.interpreter()
            process.arguments = [script.path, ProcessInfo.processInfo.arguments[0], "--testing-library", "swift-testing", "--filter", "MCP stdio child", "--", key]
            process.environment = environment
            let output = try ChildOutput(), errors = try ChildOutput()
            process.standardOutput = output.handle
            process.standardError = errors.handle
            try process.run()
            let deadline = ChildDeadline(process, seconds: 240)  // the client's calls take seconds
            _ = process.waitForExit()
            let stopped = deadline.stoppedTheChild ? "stopped after 240 s, a hang; " : ""
            return (output.data, stopped + errors.text)
        }
        let report = try #require((try? JSONSerialization.jsonObject(with: data)) as? [String: Any], "the client failed: \(problems.suffix(3000))")

        #expect(report["protocol_version"] as? String == "2025-11-25")
        #expect(report["server_name"] as? String == "loopback")
        #expect(report["tools"] as? [String] == ["echo_query", "echo_create", "slow_call", "number_page"])
        #expect(report["valid_tools"] as? Bool == true)
        #expect(report["output_schemas"] as? [String: Bool] == ["echo_query": true, "echo_create": true, "slow_call": true, "number_page": true])
        #expect(report["read_only"] as? [String: Bool] == ["echo_query": true, "echo_create": false, "slow_call": true, "number_page": true])

        // The exact requests, as the loopback server saw them.
        let query = try #require((report["echo_query"] as? [String: Any])?["structured"] as? [String: Any])
        #expect(query["method"] as? String == "GET")
        #expect(query["target"] as? String == "/echo/query?term=mcp%20\(key)&limit=3")
        let created = try #require((report["echo_create"] as? [String: Any])?["structured"] as? [String: Any])
        #expect(created["method"] as? String == "POST")
        #expect(created["body"] as? String == #"{"name":"Ada \#(key)"}"#)

        let bad = try #require(report["bad_arguments"] as? [String: Any])
        #expect(bad["is_error"] as? Bool == true)
        #expect((bad["text"] as? String)?.contains("term") == true)

        // The SDK accepts a list (structured under "result") and an answer cut at the size limit
        // (an error result, which it does not check against the schema); it raised on both before.
        let list = try #require(report["list"] as? [String: Any])
        #expect(list["raised"] == nil, "\(list["raised"] ?? "")")
        #expect(list["is_error"] as? Bool == false)
        #expect((list["structured"] as? [String: Any])?["result"] as? [Int] != nil)
        let cut = try #require(report["cut"] as? [String: Any])
        #expect(cut["raised"] == nil, "\(cut["raised"] ?? "")")
        #expect(cut["is_error"] as? Bool == true)
        #expect(cut["structured"] is NSNull)
        #expect(((cut["texts"] as? [String])?.last)?.hasPrefix("The answer was cut at this server's result size limit") == true)

        // Protocol version 2026-07-28, through the SDK's own client: the write is asked about and
        // sent when the user accepts, not sent when the user declines; a list is structured
        // content as it is; the SDK's default probe finds the current revision.
        let current = try #require(report["current"] as? [String: Any], "\(problems.suffix(3000))")
        #expect(current["protocol_version"] as? String == "2026-07-28")
        #expect(current["tools"] as? [String] == ["echo_query", "echo_create", "slow_call", "number_page"])
        #expect((current["list_schema"] as? [String: Any])?["type"] as? String == "array")
        let numbers = try #require(current["list"] as? [String: Any])
        #expect(numbers["is_error"] as? Bool == false)
        #expect(numbers["structured"] as? [Int] != nil)
        let accepted = try #require(current["accepted"] as? [String: Any])
        #expect(accepted["is_error"] as? Bool == false)
        #expect((accepted["structured"] as? [String: Any])?["body"] as? String == #"{"name":"Grace \#(key)"}"#)
        let declined = try #require(current["declined"] as? [String: Any])
        #expect(declined["is_error"] as? Bool == true)
        #expect((declined["text"] as? String)?.contains("The user declined POST /echo/create; nothing was sent.") == true)
        let asked = try #require(current["asked"] as? [String])
        #expect(asked.count == 2)
        #expect(asked.first?.hasPrefix("Allow the tool echo_create to send POST /echo/create on 127.0.0.1 with {\"name\":\"Grace \(key)\"}") == true)
        #expect(current["auto_version"] as? String == "2026-07-28")
        #expect((current["discovered"] as? [String])?.first == "2026-07-28")

        let raw = try #require(report["raw"] as? [String: Any])
        let duplicated = try #require(raw["duplicated"] as? [String: Any])
        #expect(duplicated["is_error"] as? Bool == true)
        #expect((duplicated["text"] as? String)?.contains(#"the field \"term\" appears twice"#) == true)
        #expect(raw["null_id"] as? Int == -32600)
        #expect(raw["unknown_method"] as? Int == -32601)
        #expect(raw["malformed"] as? Int == -32700)
        #expect(raw["answered_cancelled"] as? Bool == false)
        #expect(raw["only_protocol_on_stdout"] as? Bool == true)
        #expect(raw["exit_status"] as? Int == 0)

        // The cancelled call reached the server once, and nothing followed it.
        let seen = try await Seen(prefix: "/slow?seconds=30&key=\(key)").call(on: loopback.server())
        #expect(seen.paths.count == 1)
        // Reported, not asserted (timings on shared machines): the MCP round trip beside the same
        // call made directly, so that README can say what MCP adds.
        if let latency = report["latency_ms"] as? [String: Double] {
            var direct: [Double] = []
            for _ in 0..<30 {
                let start = Date()
                _ = try await EchoQuery(term: "latency", limit: nil).call(on: loopback.server())
                direct.append(Date().timeIntervalSince(start) * 1000)
            }
            print("MCP tools/call round trip through the official client: median \(latency["median"] ?? 0) ms; the same call made directly: median \(direct.sorted()[15]) ms")
        }
    }
}
#endif
