import EndpointKit
import EndpointKitContract
import Foundation

/// The JSON texts a model gets back from a tool call.
enum ToolResults {
    /// The payload as JSON: re-encoded when it is `Encodable` (only its declared fields, named as
    /// in the tool's schema), else the JSON body it was decoded from (a body that is not JSON as
    /// one string).
    static func value(of payload: Any, body: Data, status: Int, encoder: JSONEncoder) -> JSONValue {
        switch payload {
        case is EmptyPayload:
            return .object(["ok": .bool(true), "status": .integer(status)])
        case let string as String:
            return .string(string)
        case let data as Data:
            return .object(["status": .integer(status), "bytes": .integer(data.count), "note": .string("binary content is not shown")])
        case let encodable as any Encodable:
            if let data = try? encoder.encode(encodable), MissingCaseNames.found(in: data) == nil, let value = json(in: data) { return value }
            return json(in: body) ?? .string(String(decoding: body, as: UTF8.self))
        default:
            // The body the payload was decoded from, compacted (fewer tokens) when it is JSON.
            return body.isEmpty ? .null : json(in: body) ?? .string(String(decoding: body, as: UTF8.self))
        }
    }

    /// The JSON in `data`, its keys in their order, or `nil` when it is not JSON.
    private static func json(in data: Data) -> JSONValue? {
        try? JSONParser.parse(String(decoding: data, as: UTF8.self), maximumDepth: 512, refusesDuplicateKeys: false)
    }

    /// The text a model gets: `value` with every secret the call sent replaced, cut to `limit`.
    static func text(_ value: JSONValue, secrets: ToolSecrets?, limit: Int) -> String {
        truncated((secrets?.redact(value) ?? value).jsonText(), limit: limit)
    }

    /// `text`, or past `limit` bytes an object with as much of it as fits and a note that it was cut.
    static func truncated(_ text: String, limit: Int) -> String {
        let size = text.utf8.count
        guard size > limit else { return text }
        var partial = Substring(text.utf8.prefix(limit - 160)).description
        while JSONValue.object(["truncated": .bool(true), "total_bytes": .integer(size), "partial": .string(partial)]).jsonText().utf8.count > limit, !partial.isEmpty {
            partial.removeLast(max(1, partial.count / 16))
        }
        return JSONValue.object(["truncated": .bool(true), "total_bytes": .integer(size), "partial": .string(partial)]).jsonText()
    }

    /// `{"error": {…}}` for a failed call: what went wrong, and for bad arguments what to fix.
    /// `tool` is `nil` when the model named no tool there is; `tools` are the names there are.
    static func errorValue(_ error: any Error, tool: String?, tools: [String]) -> JSONValue {
        guard let error = error as? EndpointError else {
            return .object(["error": .object(["type": .string("failed"), "message": .string("\(error)")])])
        }
        var detail: JSONValue
        switch error.kind {
        case .invalidToolCall where tool == nil:
            detail = .object([
                "type": .string("unknown_tool"), "message": .string(error.reason),
                "fix": .string("Call one of these tools: \(tools.joined(separator: ", ")).")
            ])
        case .invalidToolCall:
            detail = .object([
                "type": .string("invalid_arguments"), "message": .string(error.reason),
                "fix": .string("Call \(tool ?? "the tool") again with corrected arguments."),
            ])
        case .toolCallDeclined:
            detail = .object(["type": .string("declined"), "message": .string("The user declined this call. Do not retry it unless the user asks.")])
        default:
            detail = .object(["type": .string(SnakeCase.toSnakeCase(error.kind.description)), "message": .string(error.reason)])
            if let status = error.statusCode {
                detail["status"] = .integer(status)
                if let payload = error.errorPayload as? any Encodable, let data = try? APIServer.makeEncoder().encode(payload), MissingCaseNames.found(in: data) == nil,
                   let json = json(in: data) {
                    detail["body"] = json
                } else if let body = error.responseBody, !body.isEmpty {
                    // Whole: secrets are replaced before the result is cut to its limit, never after.
                    detail["body"] = json(in: body) ?? .string(String(decoding: body, as: UTF8.self))
                }
            }
        }
        return .object(["error": detail])
    }

    /// A decoding error in the names the tool's schema uses: `the field "user_id" is missing`.
    static func describe(_ error: DecodingError, names: JSONEncoder.KeyEncodingStrategy) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for (index, key) in codingPath.enumerated() {
                if let position = key.intValue {
                    text += "[\(position)]"
                } else {
                    // A key without a case name was refused with the tool's schema: its coding key will do.
                    let name = (try? names.wireName(for: key, at: Array(codingPath[..<index]))) ?? key.stringValue
                    text += (text.isEmpty ? "" : ".") + name
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return "the field \"\(field)\" is required but missing"
        case .valueNotFound(let type, let context):
            return "the field \"\(path(context.codingPath))\" must be \(article(type)), not null"
        case .typeMismatch(let type, let context):
            return "the field \"\(path(context.codingPath))\" must be \(article(type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "the arguments are not valid JSON (\(context.debugDescription))"
        case .dataCorrupted(let context):
            return "the field \"\(path(context.codingPath))\" has an invalid value: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `an integer`, `a string`, … for a Swift type a model knows by its JSON name.
    private static func article(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: "a number"
        case is [String: Any].Type: "an object"
        case is any Collection.Type: "an array"
        default: "a JSON value of type \(type)"
        }
    }
}
