import EndpointKit
import EndpointKitContract
import Foundation

/// One endpoint type as a tool: its name, and its definition and calls with the type captured.
struct Tool: Sendable {
    let name: String
    let typeName: String
    private let define: @Sendable (ToolFormat, APIServer?) throws -> ToolDefinition
    private let perform: @Sendable (Arguments, EndpointTools, ToolSecrets) async throws -> JSONValue
    private let structure: @Sendable (APIServer?) throws -> Bool?
    private let preview: @Sendable (Arguments, EndpointTools) throws -> PendingToolCall?

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
        structure = { server in try Self.outputSchema(of: type, server: Self.definingServer(for: type, server))?.wrapped }
        preview = { arguments, tools in
            let call = try Self.prepare(type, name: name, arguments: arguments, tools: tools)
            return call.pending
        }
        perform = { arguments, tools, secrets in
            do {
                return try await Self.call(type, name: name, arguments: arguments, tools: tools, secrets: secrets)
            } catch let error as EndpointError {
                throw error.naming(type)
            }
        }
    }

    func definition(_ format: ToolFormat, server: APIServer?) throws -> ToolDefinition {
        try define(format, server)
    }

    /// Whether results are MCP structured content, wrapped in `{"result": …}` (`true`) or as they
    /// are (`false`); `nil` when they have no structured form. The same decision as the
    /// definition's `outputSchema`.
    func structuredForm(server: APIServer?) throws -> Bool? {
        try structure(server)
    }

    /// The server whose coders a definition describes.
    private static func definingServer<E: Endpoint>(for type: E.Type, _ server: APIServer?) -> APIServer {
        server ?? E.server ?? APIServer.default ?? APIServer(origin: URL(string: "http://localhost")!)
    }

    /// What a call with `arguments` would send, without sending it: `nil` for a read-only call
    /// (`GET`, `HEAD`). Throws what the call itself would throw for bad arguments.
    func pendingCall(_ arguments: Arguments, in tools: EndpointTools) throws -> PendingToolCall? {
        try preview(arguments, tools)
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
    private static func arguments<E: Endpoint & Decodable>(of type: E.Type, name: String, server: APIServer) throws -> (EndpointDescription, JSONValue) {
        func refused(_ reason: String) -> EndpointError {
            EndpointError(kind: .schemaUnavailable, route: String(reflecting: type), reason: reason)
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

    private static func definition<E: Endpoint & Decodable>(of type: E.Type, name: String, format: ToolFormat, server: APIServer?) throws -> ToolDefinition {
        let server = definingServer(for: type, server)
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
                    kind: .schemaUnavailable, route: String(reflecting: type),
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
            json = .object([
                "name": .string(name), "title": .string(documentation?.summary ?? name), "description": .string(text),
                "inputSchema": Self.closed(schema), "annotations": Self.annotations(for: method, title: documentation?.summary ?? name),
            ])
            if let output = try outputSchema(of: type, server: server) { json["outputSchema"] = output.schema }
        }
        return ToolDefinition(name: name, summary: text, json: RawJSON(json))
    }

    /// MCP's tool annotations, from the HTTP method, whose meaning RFC 9110 fixes:
    /// - `readOnlyHint`: GET and HEAD change nothing.
    /// - `destructiveHint` (of a tool that is not read-only): MCP reads `false` as "only additive
    ///   updates". Only POST is taken as additive (it creates); PUT replaces, PATCH overwrites the
    ///   fields it names, DELETE removes: all `true`.
    /// - `idempotentHint`: calling again with the same arguments has no further effect: PUT and
    ///   DELETE, besides the read-only methods.
    /// - `openWorldHint`: always `true`, since every tool calls an API outside the MCP server.
    static func annotations(for method: RequestMethod, title: String) -> JSONValue {
        let readOnly = method == .get || method == .head
        var annotations = JSONValue.object(["title": .string(title), "readOnlyHint": .bool(readOnly), "openWorldHint": .bool(true)])
        if !readOnly {
            annotations["destructiveHint"] = .bool(method != .post)
            annotations["idempotentHint"] = .bool(method.isIdempotent)
        }
        return annotations
    }

    /// `schema` with `additionalProperties: false` on every object that lists `properties` and
    /// says nothing of others: the argument validator refuses unknown fields there, and the
    /// definition says so.
    static func closed(_ schema: JSONValue) -> JSONValue {
        guard case .object(let members) = schema else { return schema }
        var result = members.map { member -> JSONValue.Member in
            var member = member
            switch member.key {
            case "properties", "$defs":
                if case .object(let children) = member.value {
                    member.value = .object(children.map { JSONValue.Member(key: $0.key, value: closed($0.value)) })
                }
            case "items", "additionalProperties", "not":
                member.value = closed(member.value)
            case "anyOf", "oneOf", "allOf", "prefixItems":
                if case .array(let options) = member.value { member.value = .array(options.map(closed)) }
            default:
                break
            }
            return member
        }
        // Not beside a `$ref` or `allOf`: there `additionalProperties` would see only these
        // properties, and refuse the ones the referred schema allows.
        if result.contains(where: { $0.key == "properties" }), !result.contains(where: { ["additionalProperties", "$ref", "allOf"].contains($0.key) }) {
            result.append(JSONValue.Member(key: "additionalProperties", value: .bool(false)))
        }
        return .object(result)
    }

    /// The member under which a payload that is not a JSON object is MCP's structured content:
    /// `{"result": [...]}`, since MCP's structured content and `outputSchema` are objects.
    static let wrappedResultKey = "result"

    /// MCP's `outputSchema`, and whether results are wrapped in `{"result": …}`: the payload's
    /// schema when it is an object, otherwise an object whose `result` is the payload (a list, a
    /// number, any JSON); with its `$defs`. `nil` for text, bytes and empty answers, which have no
    /// structured form.
    static func outputSchema<E: Endpoint & Decodable>(of type: E.Type, server: APIServer) throws -> (schema: JSONValue, wrapped: Bool)? {
        let payload = E.ReturnPayloadType.self
        guard payload != EmptyPayload.self, payload != String.self, payload != Data.self else { return nil }
        let builder = SchemaBuilder(encoder: server.encoder, decoder: server.decoder, referencePrefix: "#/$defs/")
        var schema = builder.resolved(try builder.probe(any: payload).schema)
        let wrapped = schema["type"]?.stringValue != "object"
        if wrapped {
            schema = .object([
                "type": .string("object"),
                "properties": .object([wrappedResultKey: schema]),
                "required": .array([.string(wrappedResultKey)]),
            ])
        }
        if !builder.definitions.isEmpty { schema["$defs"] = .object(builder.definitions) }
        return (schema, wrapped)
    }

    // MARK: - Calls

    /// A call checked and built but not sent: the endpoint, its server, and what a confirmation is
    /// asked about (`nil` for a read-only call).
    private struct Prepared<E: Endpoint> {
        let endpoint: E
        let server: APIServer
        let pending: PendingToolCall?
    }

    /// Checks the model's arguments against the tool's schema, decodes the endpoint and builds its
    /// request: everything a call does before it asks for confirmation and sends.
    private static func prepare<E: Endpoint & Decodable>(
        _ type: E.Type, name: String, arguments: Arguments, tools: EndpointTools
    ) throws -> Prepared<E> {
        func invalid(_ reason: String) -> EndpointError {
            EndpointError(kind: .invalidToolCall, route: name, reason: reason)
        }
        let server: APIServer
        if let chosen = tools.server ?? E.server ?? APIServer.default {
            server = chosen
        } else {
            throw EndpointError(kind: .invalidRequest, route: name, reason: "no server is configured: pass one to EndpointTools(_:on:) or set APIServer.default")
        }
        // Derived once: describing the endpoint cost half a million instructions a call. Not kept
        // for `APIServer.default`, which a scope (`withDefault`) may change from call to call.
        let fixedServer = tools.server != nil || E.server != nil
        let schema: JSONValue
        if fixedServer, let known = tools.argumentSchemas.withLock({ $0[name] }) {
            schema = known
        } else {
            schema = try Self.arguments(of: type, name: name, server: server).1
            if fixedServer { tools.argumentSchemas.withLock { $0[name] = schema } }
        }

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
                // A model that wrote `id=42` or `{'id': 42}` learns what to send, not only where it went wrong.
                throw invalid(error.isSyntax ? error.message + "; " + ArgumentShape.line(for: schema) : error.message)
            }
        }
        guard case .object = value else {
            throw invalid("the arguments must be one JSON object, but they are \(EndpointError.snippet(of: Data(value.jsonText().utf8), limit: 200)); \(ArgumentShape.line(for: schema))")
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
            endpoint = try WrapperLog.$current.withValue(WrapperLog(mode: .decodingInput)) { try server.decoder.decode(E.self, from: data) }
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
        let pending = method != .get && method != .head
            ? prepared.request.url.map { PendingToolCall(name: name, method: method, url: $0, arguments: text) }
            : nil
        return Prepared(endpoint: endpoint, server: server, pending: pending)
    }

    private static func call<E: Endpoint & Decodable>(
        _ type: E.Type, name: String, arguments: Arguments, tools: EndpointTools, secrets: ToolSecrets
    ) async throws -> JSONValue {
        let call = try prepare(type, name: name, arguments: arguments, tools: tools)
        let (endpoint, server) = (call.endpoint, call.server)
        if let pending = call.pending, let confirmation = tools.confirmation {
            guard await confirmation(pending) else {
                throw EndpointError(kind: .toolCallDeclined, route: name, reason: "the user declined to \(pending.method) \(pending.url.path)")
            }
        }
        try Task.checkCancellation()
        let received = Locked(Data())
        let response = try await endpoint.perform(on: server, options: CallOptions(
            observeAttempt: { request, credentials in secrets.record(request, credentials: credentials) },
            receivedBody: { body in received.withLock { $0 = body } }))
        return ToolResults.value(of: response.payload, body: received.withLock { $0 }, status: response.statusCode, encoder: server.encoder)
    }
}

extension EndpointError.Kind {
    /// A language model's tool call cannot be made, so nothing was sent: no tool has its name, its
    /// arguments are not a JSON object, a field is missing, unknown or of the wrong type, or a
    /// value would be refused (a path value that climbs, say). `reason` says what to fix.
    ///
    /// ```swift
    /// if (result.error as? EndpointError)?.kind == .invalidToolCall { /* the model can fix it */ }
    /// ```
    public static let invalidToolCall = EndpointError.Kind(description: "invalidToolCall")
    /// The app's confirmation hook declined a tool call that is not read-only; nothing was sent.
    ///
    /// ```swift
    /// if (result.error as? EndpointError)?.kind == .toolCallDeclined { /* tell the model */ }
    /// ```
    public static let toolCallDeclined = EndpointError.Kind(description: "toolCallDeclined")
}
