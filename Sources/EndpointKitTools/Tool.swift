import EndpointKit
import EndpointKitContract
import Foundation

/// One endpoint type as a tool: its name, and its definition and calls with the type captured.
struct Tool: Sendable {
    let name: String
    let typeName: String
    private let define: @Sendable (ToolFormat, Server?) throws -> ToolDefinition
    private let perform: @Sendable (Arguments, EndpointTools, ToolSecrets) async throws -> JSONValue

    /// A model's arguments: JSON text (OpenAI's `arguments`), or a JSON value the caller has read
    /// already (Anthropic's `input`, MCP's `arguments`).
    enum Arguments: Sendable {
        case text(String)
        case value(JSONValue)
    }

    init<E: Endpoint & Decodable>(_ type: E.Type) {
        let name = Self.toolName(of: type)
        self.name = name
        typeName = String(reflecting: type)
        define = { format, server in try Self.definition(of: type, name: name, format: format, server: server) }
        perform = { arguments, tools, secrets in
            do {
                return try await Self.call(type, name: name, arguments: arguments, tools: tools, secrets: secrets)
            } catch let error as EndpointError {
                throw error.naming(type)
            }
        }
    }

    func definition(_ format: ToolFormat, server: Server?) throws -> ToolDefinition {
        try define(format, server)
    }

    /// The payload of a call, as JSON; the credentials the call sent are recorded in `secrets`.
    func call(_ arguments: Arguments, in tools: EndpointTools, secrets: ToolSecrets) async throws -> JSONValue {
        try await perform(arguments, tools, secrets)
    }

    /// `cheer_history` for `CheerHistory`: snake_case, only `a-z A-Z 0-9 _ -`, at most 64
    /// characters, as every provider accepts.
    static func toolName(of type: Any.Type) -> String {
        let snake = SnakeCase.toSnakeCase(SchemaBuilder.baseName(of: type).replacingOccurrences(of: ".", with: "_"))
        let allowed = snake.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-") ? Character(scalar) : "_"
        }
        return String(String(allowed).prefix(64))
    }

    // MARK: - Definitions

    /// What a definition is made from: the description and the arguments' schema with its `$defs`.
    private static func arguments<E: Endpoint & Decodable>(of type: E.Type, name: String, server: Server) throws -> (EndpointDescription, JSONValue) {
        func refused(_ reason: String) -> EndpointError {
            EndpointError(kind: .schemaUnavailable, endpoint: String(reflecting: type), reason: reason)
        }
        if E.ReturnPayloadType.self is any StreamedPayload.Type {
            throw refused("it streams its answer, which a tool result cannot hold; offer an endpoint that returns the whole payload")
        }
        let builder = SchemaBuilder(encoder: server.encoder, decoder: server.decoder, referencePrefix: "#/$defs/")
        let description = try EndpointDescription(type, builder: builder, server: server, decoded: true)
        var schema = description.arguments
        if !builder.definitions.isEmpty { schema["$defs"] = .object(builder.definitions) }
        if schema.jsonText().contains(#""contentMediaType":"application/octet-stream""#) {
            throw refused("it takes a file (MultipartFile), which a model cannot send")
        }
        return (description, schema)
    }

    private static func definition<E: Endpoint & Decodable>(of type: E.Type, name: String, format: ToolFormat, server: Server?) throws -> ToolDefinition {
        let server = server ?? E.server ?? Server.default ?? Server(origin: URL(string: "http://localhost")!)
        var (description, schema) = try arguments(of: type, name: name, server: server)
        let documentation = (type as? any Documented.Type)?.documentation
        let method = description.restful.method
        let summary = [documentation?.summary, documentation?.description].compactMap { $0 }.joined(separator: "\n\n")
        let text = summary.isEmpty ? "\(method) \(description.path)" : summary
        if format.isStrict {
            do {
                schema = try StrictSchema.transform(schema, at: name)
            } catch let problem as StrictSchema.Problem {
                throw EndpointError(
                    kind: .schemaUnavailable, endpoint: String(reflecting: type),
                    reason: "its arguments have no form in OpenAI's strict mode: \(problem.reason)")
            }
        }
        var json: JSONValue
        switch format.kind {
        case .openAIResponses:
            json = .object(["type": .string("function"), "name": .string(name), "description": .string(text), "parameters": schema, "strict": .bool(true)])
        case .openAIChat:
            json = .object(["type": .string("function"), "function": .object([
                "name": .string(name), "description": .string(text), "parameters": schema, "strict": .bool(true),
            ])])
        case .anthropic:
            json = .object(["name": .string(name), "description": .string(text), "input_schema": schema])
        case .mcp:
            let readOnly = method == .get || method == .head
            var annotations = JSONValue.object(["title": .string(documentation?.summary ?? name), "readOnlyHint": .bool(readOnly)])
            if !readOnly {
                annotations["destructiveHint"] = .bool(method == .delete)
                annotations["idempotentHint"] = .bool(method.isIdempotent)
            }
            json = .object([
                "name": .string(name), "title": .string(documentation?.summary ?? name), "description": .string(text),
                "inputSchema": schema, "annotations": annotations,
            ])
            if let output = try outputSchema(of: type, server: server) { json["outputSchema"] = output }
        }
        return ToolDefinition(name: name, summary: text, json: RawJSON(json))
    }

    /// MCP's `outputSchema`: the payload's schema when it is an object (MCP's structured content
    /// is one), with its `$defs`; `nil` for lists, text, bytes and empty answers.
    private static func outputSchema<E: Endpoint & Decodable>(of type: E.Type, server: Server) throws -> JSONValue? {
        let payload = E.ReturnPayloadType.self
        guard payload != EmptyPayload.self, payload != String.self, payload != Data.self else { return nil }
        let builder = SchemaBuilder(encoder: server.encoder, decoder: server.decoder, referencePrefix: "#/$defs/")
        var schema = builder.resolved(try builder.probe(any: payload).schema)
        guard schema["type"]?.stringValue == "object" else { return nil }
        if !builder.definitions.isEmpty { schema["$defs"] = .object(builder.definitions) }
        return schema
    }

    // MARK: - Calls

    private static func call<E: Endpoint & Decodable>(
        _ type: E.Type, name: String, arguments: Arguments, tools: EndpointTools, secrets: ToolSecrets
    ) async throws -> JSONValue {
        func invalid(_ reason: String) -> EndpointError {
            EndpointError(kind: .invalidToolCall, endpoint: name, reason: reason)
        }
        let server: Server
        if let chosen = tools.server ?? E.server ?? Server.default {
            server = chosen
        } else {
            throw EndpointError(kind: .invalidRequest, endpoint: name, reason: "no server is configured: pass one to EndpointTools(_:on:) or set Server.default")
        }
        let (description, schema) = try Self.arguments(of: type, name: name, server: server)

        // One JSON object, checked against the tool's schema at every depth before it is decoded.
        let value: JSONValue
        switch arguments {
        case .value(let given):
            value = given
        case .text(let argumentText):
            let trimmed = argumentText.trimmingCharacters(in: .whitespacesAndNewlines)
            do throws(JSONParser.Failure) {
                value = try JSONParser.parse(trimmed.isEmpty ? "{}" : trimmed)
            } catch {
                throw invalid(error.message)
            }
        }
        guard case .object = value else {
            throw invalid("the arguments must be one JSON object, such as {\(description.argumentNames.map { "\"\($0)\": …" }.joined(separator: ", "))}, but they are \(EndpointError.snippet(of: Data(value.jsonText().utf8), limit: 200))")
        }
        do throws(JSONParser.Failure) {
            try ArgumentValidator(schema: schema).validate(value, against: schema)
        } catch {
            throw invalid(error.message)
        }
        let text = value.jsonText()
        let data = Data(text.utf8)

        // Into the struct, with the app's headers as declared; then every value EndpointKit checks.
        let endpoint: E
        do {
            endpoint = try WrapperLog.$current.withValue(WrapperLog(mode: .toolCall)) { try server.decoder.decode(E.self, from: data) }
        } catch let error as DecodingError {
            throw invalid(ToolResults.describe(error, names: server.encoder.keyEncodingStrategy))
        }
        let prepared: PreparedRequest
        do {
            prepared = try RequestBuilder.request(for: endpoint, on: server.overridden())
        } catch {
            throw invalid(error.reason)
        }

        let method = endpoint.endpoint.method
        if method != .get && method != .head, let confirmation = tools.confirmation, let url = prepared.request.url {
            guard await confirmation(PendingToolCall(name: name, method: method, url: url, arguments: text)) else {
                throw EndpointError(kind: .toolCallDeclined, endpoint: name, reason: "the user declined to \(method) \(url.path)")
            }
        }
        try Task.checkCancellation()
        let received = Locked(Data())
        let response = try await endpoint.perform(on: server, options: CallOptions(
            observeAttempt: { request, scope in secrets.record(request, scope: scope) },
            receivedBody: { body in received.withLock { $0 = body } }))
        return ToolResults.value(of: response.payload, body: received.withLock { $0 }, status: response.statusCode, encoder: server.encoder)
    }
}
