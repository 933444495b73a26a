@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Endpoints as an app would offer them to a model.
private struct RecentCheers: Endpoint, Decodable, Documented {
    enum Size: String, Codable, Sendable, CaseIterable { case small, large }
    var endpoint: Restful { Restful(.get, "users/{userId}/cheers") }
    let userId: Int
    let since: Date?
    let sizes: [Size]
    @HeaderField("X-Client") var client: String? = "assistant"
    struct ReturnPayloadType: Codable, Sendable { let total: Int; let note: String? }

    static var documentation: Documentation {
        Documentation(summary: "List a user's recent cheers", properties: ["since": "Only cheers bought after this date"])
    }
}

private struct GiveCheer: Endpoint, Decodable {
    struct Recipient: Codable, Sendable { let name: String; let team: String? }
    var endpoint: Restful { Restful(.post, "cheers", version: 2) }
    let recipient: Recipient
    let amount: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct ReadFile: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "files/{name}") }
    let name: String
    typealias ReturnPayloadType = String
}

private struct Balance: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "balance") }
    struct ReturnPayloadType: Decodable, Sendable { let amount: Int }   // Decodable only
}

private struct Settings: Endpoint, Decodable {
    var endpoint: Restful { Restful(.put, "settings") }
    let values: [String: String]
    typealias ReturnPayloadType = EmptyPayload
}

/// Answers every call with the same body and records what was sent.
private func tools(
    _ endpoints: [any (Endpoint & Decodable).Type], status: Int = 200, body: String = #"{"total": 3, "note": null, "secret": "s3cr3t"}"#,
    maximumResultSize: Int = 16 << 10, confirmation: (@Sendable (PendingToolCall) async -> Bool)? = nil
) -> (EndpointTools, RecordingTransport) {
    let transport = RecordingTransport(status: status, body: body)
    var server = APIServer.stub(transport)
    server.middlewares = [HTTPBearerAuthorization(token: "t0k3n")]
    return (EndpointTools(endpoints, on: server, maximumResultSize: maximumResultSize, confirmation: confirmation), transport)
}

private func json(_ definition: ToolDefinition) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: definition.json.json) as? [String: Any])
}

@Suite struct EndpointToolsTests {
    @Test func `an OpenAI definition is the endpoint's arguments in strict mode`() throws {
        let (tools, _) = tools([RecentCheers.self])
        let definition = try #require(try tools.definitions(for: .openAI).first)
        #expect(definition.json.value.jsonText() == ##"{"type":"function","name":"recent_cheers","description":"List a user's recent cheers","parameters":{"type":"object","properties":{"user_id":{"type":"integer"},"since":{"type":["string","null"],"format":"date-time","description":"Only cheers bought after this date"},"sizes":{"type":"array","items":{"type":"string","enum":["small","large"]}}},"required":["user_id","since","sizes"],"additionalProperties":false},"strict":true}"##)
    }

    @Test func `Anthropic, MCP and Chat Completions definitions keep the plain schema or nest it`() throws {
        let (tools, _) = tools([RecentCheers.self, GiveCheer.self])
        let anthropic = try tools.definitions(for: .anthropic)
        #expect(anthropic[1].json.value.jsonText() == ##"{"name":"give_cheer","description":"POST /api/v2/cheers","input_schema":{"type":"object","properties":{"recipient":{"$ref":"#/$defs/GiveCheer.Recipient"},"amount":{"type":"integer","format":"int64","minimum":-9223372036854775808,"maximum":9223372036854775807}},"required":["recipient","amount"],"$defs":{"GiveCheer.Recipient":{"title":"GiveCheer.Recipient","type":"object","properties":{"name":{"type":"string"},"team":{"type":["string","null"]}},"required":["name"]}}}}"##)
        let mcp = try tools.definitions(for: .mcp).map(json)
        #expect((mcp[0]["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool == true)
        #expect((mcp[1]["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool == false)
        #expect((mcp[1]["annotations"] as? [String: Any])?["destructiveHint"] as? Bool == false)
        #expect((mcp[1]["annotations"] as? [String: Any])?["idempotentHint"] as? Bool == false)
        #expect(mcp[1]["inputSchema"] != nil)
        let chat = try json(try tools.definitions(for: .openAIChat)[1])
        #expect((chat["function"] as? [String: Any])?["name"] as? String == "give_cheer")
        let parameters = try #require((chat["function"] as? [String: Any])?["parameters"])
        #expect(StrictModeChecker.violations(of: parameters) == [])
        #expect(((parameters as? [String: Any])?["$defs"] as? [String: Any])?["GiveCheer.Recipient"] != nil)
    }

    @Test func `every strict definition passes an independent strict-mode check, and no credential appears`() throws {
        let (tools, _) = tools([RecentCheers.self, GiveCheer.self, ReadFile.self])
        for definition in try tools.definitions(for: .openAI) {
            #expect(StrictModeChecker.violations(of: try json(definition)["parameters"]!) == [], "\(definition.name)")
            #expect(!definition.json.description.contains("t0k3n"))
        }
        #expect(tools.names == ["recent_cheers", "give_cheer", "read_file"])
    }

    @Test func `a dictionary has no strict form, and the error names it`() throws {
        let (tools, _) = tools([Settings.self])
        let error = try #require(throws: EndpointError.self) { try tools.definitions(for: .openAI) }
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains("settings.values is a dictionary"))
        #expect(try tools.definitions(for: .anthropic).count == 1)  // plain JSON Schema describes it
    }

    @Test func `a call decodes the arguments, goes through the middlewares and returns the declared payload`() async throws {
        let (tools, transport) = tools([RecentCheers.self])
        let result = try await tools.result(name: "recent_cheers", arguments: #"{"user_id": 42, "since": "2024-05-01T00:00:00Z", "sizes": ["large"]}"#)
        #expect(!result.isError)
        #expect(result.text == #"{"total":3}"#)  // only declared fields, encoded: "secret" and the nil note are left out
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/users/42/cheers?since=2024-05-01T00%3A00%3A00Z&sizes=large")
        #expect(request.value(forHTTPHeaderField: "X-Client") == "assistant")   // the app's header, as declared
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")
    }

    @Test(arguments: [
        ("nope", "{}", "there is no tool named \"nope\""),
        ("recent_cheers", "[1]", "the arguments must be one JSON object"),
        ("recent_cheers", "{\"user_id\": 1", "the arguments are not valid JSON: the text ends before the object is closed, at byte 13"),
        ("recent_cheers", #"{"sizes": []}"#, "the field \"user_id\" is required but missing"),
        ("recent_cheers", #"{"user_id": "7", "sizes": []}"#, "the field \"user_id\" must be an integer"),
        ("recent_cheers", #"{"user_id": 7, "sizes": ["huge"]}"#, "the field \"sizes[0]\" must be one of \"small\", \"large\", not \"huge\""),
        ("recent_cheers", #"{"user_id": 7, "sizes": [], "client": "x"}"#, "unknown field \"client\"; the fields are \"user_id\", \"since\", \"sizes\""),
        ("read_file", #"{"name": ".."}"#, "a dot segment that would climb the path"),
        ("give_cheer", #"{"recipient": {"team": "a"}, "amount": 1}"#, "the field \"recipient.name\" is required but missing"),
    ])
    func `bad arguments never reach the network and tell the model what to fix`(tool: String, arguments: String, message: String) async throws {
        let (tools, transport) = tools([RecentCheers.self, GiveCheer.self, ReadFile.self])
        let result = try await tools.result(name: tool, arguments: arguments)
        #expect(result.isError)
        #expect((result.error as? EndpointError)?.reason.contains(message) == true, "\(result.text)")
        #expect(result.text.contains(tool == "nope" ? #""type":"unknown_tool""# : #""type":"invalid_arguments""#))
        #expect((result.error as? EndpointError)?.kind == .invalidToolCall)
        #expect(transport.requests.isEmpty)
        let error = await #expect(throws: EndpointError.self) { try await tools.call(name: tool, arguments: arguments) }
        #expect(error?.kind == .invalidToolCall)
    }

    @Test func `the confirmation runs before a call that is not read-only, and a refusal sends nothing`() async throws {
        let asked = Locked<[PendingToolCall]>([])
        let (tools, transport) = tools([RecentCheers.self, GiveCheer.self], body: "", confirmation: { call in
            asked.withLock { $0.append(call) }
            return false
        })
        _ = try await tools.result(name: "recent_cheers", arguments: #"{"user_id": 1, "sizes": []}"#)   // GET: not asked
        let refused = try await tools.result(name: "give_cheer", arguments: #"{"recipient": {"name": "Ana"}, "amount": 5}"#)
        #expect(asked.value.map(\.name) == ["give_cheer"])
        #expect(asked.value.first?.method == .post)
        #expect(asked.value.first?.url.absoluteString == "https://api.example.com/api/v2/cheers")
        #expect(refused.isError && refused.text.contains(#""type":"declined""#))
        #expect(transport.requests.count == 1)  // only the GET
    }

    @Test func `a payload that is only Decodable is answered with the JSON it was decoded from, compacted`() async throws {
        let (tools, _) = tools([Balance.self], body: "{\n  \"amount\": 12,\n  \"currency\": \"EUR\"\n}")
        #expect(try await tools.result(name: "balance", arguments: "").text == #"{"amount":12,"currency":"EUR"}"#)
        let (broken, _) = EndpointToolsTests.balanceTools(body: #"{"amount": "twelve"}"#)
        let refused = try await broken.result(name: "balance", arguments: "{}")
        #expect(refused.isError && (refused.error as? EndpointError)?.kind == .decodingFailed)
    }

    static func balanceTools(body: String) -> (EndpointTools, RecordingTransport) {
        let transport = RecordingTransport(body: body)
        return (EndpointTools([Balance.self], on: .stub(transport)), transport)
    }

    @Test func `an accepted write returns an acknowledgement`() async throws {
        let (tools, transport) = tools([GiveCheer.self], status: 204, body: "", confirmation: { _ in true })
        let result = try await tools.result(name: "give_cheer", arguments: #"{"recipient": {"name": "Ana", "team": null}, "amount": 5}"#)
        #expect(result.text == #"{"ok":true,"status":204}"#)
        #expect(String(decoding: try transport.request.httpBody ?? Data(), as: UTF8.self) == #"{"amount":5,"recipient":{"name":"Ana"}}"#)
    }

    @Test func `a server error becomes an error object with the status and body`() async throws {
        let (tools, _) = tools([RecentCheers.self], status: 404, body: #"{"message": "no such user"}"#)
        let result = try await tools.result(name: "recent_cheers", arguments: #"{"user_id": 9, "sizes": []}"#)
        #expect(result.isError)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: [String: Any]])
        #expect(object["error"]?["status"] as? Int == 404)
        #expect(object["error"]?["type"] as? String == "unacceptable_status")
        #expect((object["error"]?["body"] as? [String: String])?["message"] == "no such user")  // the JSON body, as JSON
    }

    @Test func `a long result is cut to the limit and says so`() async throws {
        let long = String(repeating: "é", count: 3000)
        let transport = RecordingTransport(headers: ["Content-Type": "text/plain"], body: long)
        let limited = EndpointTools([ReadFile.self], on: .stub(transport), maximumResultSize: 1000)
        let result = try await limited.result(name: "read_file", arguments: #"{"name": "notes.txt"}"#)
        #expect(result.text.utf8.count <= 1000)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        #expect(object["truncated"] as? Bool == true)
        #expect(object["total_bytes"] as? Int == JSONValue.string(long).jsonText().utf8.count)
        #expect((object["partial"] as? String)?.hasPrefix("\"ééé") == true)
    }
}

private struct Summary: Decodable, Sendable {
    enum Mood: String, Decodable, Sendable, CaseIterable { case good, bad }
    struct Point: Decodable, Sendable { let text: String; let weight: Double? }
    let title: String
    let keyPoints: [Point]
    let mood: Mood?
    let writtenAt: Date
}

@Suite struct StructuredOutputTests {
    @Test func `a payload type becomes a strict response format and the answer decodes back`() throws {
        let output = try StructuredOutput(Summary.self)
        #expect(output.responseFormat.value.jsonText() == ##"{"type":"json_schema","json_schema":{"name":"summary","strict":true,"schema":{"type":"object","properties":{"title":{"type":"string"},"key_points":{"type":"array","items":{"$ref":"#/$defs/Summary.Point"}},"mood":{"type":["string","null"],"enum":["good","bad",null]},"written_at":{"type":"string","format":"date-time"}},"required":["title","key_points","mood","written_at"],"additionalProperties":false,"$defs":{"Summary.Point":{"type":"object","properties":{"text":{"type":"string"},"weight":{"type":["number","null"]}},"required":["text","weight"],"additionalProperties":false}}}}}"##)
        #expect(StrictModeChecker.violations(of: try JSONSerialization.jsonObject(with: output.schema.json)) == [])
        let summary = try output.decode(#"{"title": "Q3", "key_points": [{"text": "up", "weight": null}], "mood": "good", "written_at": "2024-05-01T12:30:00.250Z"}"#)
        #expect(summary.title == "Q3" && summary.keyPoints.first?.text == "up" && summary.mood == .good)
        #expect(summary.writtenAt == Date(timeIntervalSince1970: 1_714_566_600.25))
    }

    @Test func `raw JSON keeps its keys inside a snake_case request body`() throws {
        struct ChatRequest: Encodable { let responseFormat: RawJSON }
        let output = try StructuredOutput(Summary.self)
        let body = String(decoding: try APIServer.makeEncoder().encode(ChatRequest(responseFormat: output.responseFormat)), as: UTF8.self)
        #expect(body.contains(#""response_format":"#))
        #expect(body.contains(#""additionalProperties":false"#))
        #expect(body.contains(#""json_schema":"#) && !body.contains("additional_properties"))
    }
}
