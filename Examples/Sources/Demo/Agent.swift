import EndpointKit
import EndpointKitTools
import Foundation

// An agent loop: the demo's endpoints as tools of a language model. The embedded server plays an
// OpenAI-compatible chat endpoint whose model follows a script (see DemoServer), so the loop runs
// with no real model: a wrong tool call, the error result that tells the model what to fix, a
// corrected call, and an answer quoting the tool's result.

/// POST /api/v1/agent/chat/completions: OpenAI's Chat Completions shape, with tools.
struct AgentChat: Endpoint {
    var endpoint: Restful { Restful(.post, "agent/chat/completions") }
    let model: String
    let messages: [AgentMessage]
    let tools: [ToolDefinition]            // encoded as written, whatever the key strategy

    struct ReturnPayloadType: Decodable, Sendable {
        struct Choice: Decodable, Sendable {
            let message: AgentMessage
            let finishReason: String
        }
        let choices: [Choice]
    }
}

struct AgentMessage: Codable, Sendable {
    struct ToolCall: Codable, Sendable {
        struct Function: Codable, Sendable {
            let name: String
            let arguments: String
        }
        let id: String
        let function: Function
    }
    let role: String
    var content: String?
    var toolCalls: [ToolCall]?
    var toolCallId: String?
}

struct AgentFailure: Error, CustomStringConvertible {
    let description: String
}

/// Asks the scripted model what the user cheered for, running its tool calls through EndpointTools.
func runAgent() async throws {
    let tools = EndpointTools([CheerHistory.self, PurchaseCheer.self], confirmation: { call in
        print("    (confirm \(call.method) \(call.url.path)? The demo says no: only reading is allowed here.)")
        return false
    })
    let definitions = try tools.definitions(for: .openAIChat)
    print("Agent           tools offered: \(definitions.map(\.name).joined(separator: ", "))")
    var messages = [AgentMessage(role: "user", content: "What did I cheer for last week?")]
    print("    user:      \(messages[0].content ?? "")")
    var errors = 0
    for _ in 0..<4 {
        let reply = try await AgentChat(model: "scripted", messages: messages, tools: definitions).response.choices[0].message
        messages.append(reply)
        guard let calls = reply.toolCalls, !calls.isEmpty else {
            print("    assistant: \(reply.content ?? "")")
            guard errors == 1, reply.content?.contains("cheer.large") == true else {
                throw AgentFailure(description: "the conversation did not go as scripted")
            }
            return
        }
        for call in calls {
            print("    assistant: calls \(call.function.name)(\(call.function.arguments))")
            let result = try await tools.result(name: call.function.name, arguments: call.function.arguments)
            if result.isError { errors += 1 }
            print("    tool:      \(result.isError ? "error " : "")\(result.text.prefix(160))\(result.text.count > 160 ? "…" : "")")
            messages.append(AgentMessage(role: "tool", content: result.text, toolCallId: call.id))
        }
    }
    throw AgentFailure(description: "the model did not answer within four turns")
}
