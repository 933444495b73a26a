import EndpointKit
import EndpointKitTools
import Foundation

extension MCPServer {
    /// What happens to a tool call before it is sent.
    enum Decision {
        /// Send it (read-only, confirmed, or allowed by the policy).
        case send
        /// Ask the user first: an `InputRequiredResult`.
        case ask(JSONValue)
        /// Answer with this error result; nothing is sent.
        case refuse(JSONValue)
        /// A JSON-RPC error: the `requestState` brought back was refused.
        case invalid(code: Int, message: String)
    }

    /// The id of the one input request a confirmation makes.
    static let confirmationKey = "confirm"

    /// ``Confirmation``'s rules, in its order, for a call of `tool` with `arguments` from `caller`.
    func confirm(tool: String, arguments: JSONValue, params: JSONValue, revision: ClientRevision, caller: Caller) -> Decision {
        // Where every rule below would send the call, a read or a write, it is sent without
        // building its request to find out which (a second build of it: the call builds its own).
        let mayAsk = revision.rules.hasInputRequests && (params["requestState"]?.stringValue != nil || revision.canAskUser)
        if caller.isIdentified || confirmation.allowsAnonymousWrites,
           tools.confirmsCalls || (!mayAsk && confirmation.whenClientCannotAsk == .send) {
            return .send
        }
        // Read-only calls, and arguments the call itself refuses (with an error result), go on.
        guard let pending = tools.pendingCall(name: tool, arguments: arguments) else { return .send }
        if !caller.isIdentified, !confirmation.allowsAnonymousWrites {
            return .refuse(MCPServer.errorResult(
                type: "unauthenticated", message: "This server sends no \(pending.method) from a caller it has not identified; nothing was sent.",
                fix: "Connect with credentials this server accepts, or use a read-only tool."))
        }
        if tools.confirmsCalls { return .send }  // the app's own closure decides, in the call
        if revision.rules.hasInputRequests {
            if let text = params["requestState"]?.stringValue {
                return answered(pending, arguments: arguments, state: text, params: params, caller: caller)
            }
            if revision.canAskUser { return .ask(inputRequired(pending, arguments: arguments, caller: caller)) }
        }
        switch confirmation.whenClientCannotAsk {
        case .send:
            return .send
        case .refuse:
            return .refuse(MCPServer.errorResult(
                type: "confirmation_required",
                message: "\(pending.method) \(pending.url.path) needs the user's confirmation, and this client cannot ask for it; nothing was sent.",
                fix: "Use a client that supports form elicitation (MCP 2026-07-28), or a read-only tool."))
        }
    }

    /// The retry of a call the user was asked about.
    private func answered(_ pending: PendingToolCall, arguments: JSONValue, state text: String, params: JSONValue, caller: Caller) -> Decision {
        let now = Date()
        spentConfirmations = spentConfirmations.filter { $0.value > now }
        let state: ConfirmationState
        do {
            state = try ConfirmationState.opened(text, key: confirmation.key)
            if state.tool != pending.name || state.argumentsDigest != ConfirmationState.digest(of: arguments) { throw ConfirmationState.Refusal.otherCall }
            if state.binding != caller.binding { throw ConfirmationState.Refusal.otherCaller }
            if Double(state.expiry) <= now.timeIntervalSince1970 { throw ConfirmationState.Refusal.expired }
            if spentConfirmations[state.nonce] != nil { throw ConfirmationState.Refusal.spent }
        } catch let refusal as ConfirmationState.Refusal {
            return .invalid(code: -32602, message: "Invalid params: the requestState is refused: \(refusal.reason); nothing was sent")
        } catch {
            return .invalid(code: -32602, message: "Invalid params: the requestState is refused; nothing was sent")
        }
        guard let response = params["inputResponses"]?[MCPServer.confirmationKey] else {
            // The retry did not bring the user's answer: ask again.
            return .ask(inputRequired(pending, arguments: arguments, caller: caller))
        }
        let accepted = response["action"]?.stringValue == "accept" && response["content"]?[MCPServer.confirmationKey]?.boolValue != false
        guard accepted else {
            return .refuse(MCPServer.errorResult(
                type: "declined", message: "The user declined \(pending.method) \(pending.url.path); nothing was sent.",
                fix: "Do not retry it unless the user asks."))
        }
        spentConfirmations[state.nonce] = Date(timeIntervalSince1970: Double(state.expiry))
        return .send
    }

    /// The `InputRequiredResult` that asks the user, in plain words, whether to send `pending`.
    private func inputRequired(_ pending: PendingToolCall, arguments: JSONValue, caller: Caller) -> JSONValue {
        let state = ConfirmationState(
            binding: caller.binding, tool: pending.name, argumentsDigest: ConfirmationState.digest(of: arguments),
            expiry: Int64(Date().timeIntervalSince1970 + confirmation.lifetime), nonce: ConfirmationState.nonce())
        let host = pending.url.host.map { " on \($0)" } ?? ""
        let message = "Allow the tool \(pending.name) to send \(pending.method) \(pending.url.path)\(host) with \(pending.arguments)?"
        let question = JSONValue.object([
            "method": .string("elicitation/create"),
            "params": .object([
                "mode": .string("form"),
                "message": .string(message),
                "requestedSchema": .object([
                    "type": .string("object"),
                    "properties": .object([MCPServer.confirmationKey: .object([
                        "type": .string("boolean"), "title": .string("Send it"),
                        "description": .string("\(pending.method) \(pending.url.path)\(host)"), "default": .bool(false),
                    ])]),
                    "required": .array([.string(MCPServer.confirmationKey)]),
                ]),
            ]),
        ])
        return .object([
            "resultType": .string("input_required"),
            "inputRequests": .object([MCPServer.confirmationKey: question]),
            "requestState": .string(state.sealed(key: confirmation.key)),
        ])
    }

    /// A tool result that reports an error to the model, as EndpointKitTools' error results do.
    static func errorResult(type: String, message: String, fix: String) -> JSONValue {
        let text = JSONValue.object(["error": .object(["type": .string(type), "message": .string(message), "fix": .string(fix)])]).jsonText()
        return .object(["content": .array([.object(["type": .string("text"), "text": .string(text)])]), "isError": .bool(true)])
    }
}
