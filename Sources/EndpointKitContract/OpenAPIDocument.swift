import EndpointKit
import Foundation

/// An OpenAPI 3.1 document of a set of endpoints, derived from their structs: paths, parameters,
/// request bodies, responses, schemas and security, as EndpointKit sends and reads them.
///
/// ```swift
/// let document = try OpenAPIDocument(title: "Reiterate", version: "2.1",
///                                    servers: [.reiterate], endpoints: [PurchaseCheer.self, CheerHistory.self])
/// try document.yaml().write(to: URL(fileURLWithPath: "openapi.yaml"))   // or .json()
/// ```
///
/// An endpoint is described from its `Decodable` conformance, which the compiler synthesizes: add
/// `Decodable` to the struct and declare `endpoint` as a computed property
/// (`var endpoint: Restful { Restful(.get, "…") }`), since a stored `Restful` cannot be decoded.
/// Summaries, descriptions, tags and a success status come from ``Documented``.
///
/// - The first server's path prefix and coders apply (an endpoint's own `Endpoint/server` or
///   `Restful/prefix` wins); every server's origin is listed under `servers`.
/// - Responses: the payload under 200 (204 for `EmptyPayload`, or ``Documentation/status``),
///   `Data` as `application/octet-stream`, `String` as `text/plain`, streams as
///   `text/event-stream` or `application/jsonl`; the error payload under `default`.
/// - Security schemes come from the first server's authorization middlewares and apply to the
///   endpoints whose `Endpoint/requiresAuthorization` is `true`.
public struct OpenAPIDocument: Sendable {
    let document: JSONValue

    /// Describes `endpoints` served by `servers`.
    ///
    /// - Parameters:
    ///   - title: The API's name, `info.title`.
    ///   - version: The document's version, `info.version`.
    ///   - description: Longer text for `info.description`.
    ///   - servers: The servers the API runs on; the first one's prefix, coders, error payload
    ///     type and middlewares describe the endpoints. Defaults to `APIServer/default`.
    ///   - endpoints: The endpoint types, each `Decodable`.
    /// - Throws: `EndpointError` of kind `EndpointError/Kind/schemaUnavailable` naming the
    ///   type that cannot be described, or two endpoints with the same method and path.
    public init(
        title: String, version: String, description: String? = nil, servers: [APIServer] = [],
        endpoints: [any (Endpoint & Decodable).Type]
    ) throws {
        let main = servers.first ?? APIServer.default ?? APIServer(origin: URL(string: "http://localhost")!)
        let builder = SchemaBuilder(encoder: main.encoder, decoder: main.decoder, referencePrefix: "#/components/schemas/")
        let security = SecurityScheme.schemes(of: main.middlewares)
        var paths: [JSONValue.Member] = []
        var tags: [String] = []
        for type in endpoints {
            let (path, method, operation, operationTags) = try Self.operation(for: type, builder: builder, main: main, security: security)
            tags += operationTags.filter { !tags.contains($0) }
            if let index = paths.firstIndex(where: { $0.key == path }) {
                guard paths[index].value[method] == nil else {
                    throw EndpointError(
                        kind: .schemaUnavailable, route: String(reflecting: type),
                        reason: "another endpoint already has \(method.uppercased()) \(path); an OpenAPI document holds one operation per method and path")
                }
                paths[index].value[method] = operation
            } else {
                paths.append(.init(key: path, value: .object([.init(key: method, value: operation)])))
            }
        }
        var info = JSONValue.object(["title": .string(title), "version": .string(version)])
        if let description { info["description"] = .string(description) }
        var document = JSONValue.object(["openapi": .string("3.1.0"), "info": info])
        if !servers.isEmpty {
            document["servers"] = .array(servers.map { .object(["url": .string($0.plan.origin)]) })
        }
        if !tags.isEmpty { document["tags"] = .array(tags.map { .object(["name": .string($0)]) }) }
        document["paths"] = .object(paths)
        var components = JSONValue.object([:])
        if !builder.definitions.isEmpty { components["schemas"] = .object(builder.definitions) }
        if !security.isEmpty { components["securitySchemes"] = .object(security.map { .init(key: $0.name, value: $0.scheme) }) }
        if components != .object([:]) { document["components"] = components }
        self.document = document
    }

    /// The document as JSON: compact by default, as `JSONEncoder` and ``JSONSchema/json(prettyPrinted:)`` write; indented with `prettyPrinted`.
    ///
    /// ```swift
    /// try document.json().write(to: URL(fileURLWithPath: "openapi.json"))
    /// ```
    public func json(prettyPrinted: Bool = false) -> Data {
        Data(document.jsonText(prettyPrinted: prettyPrinted).utf8)
    }

    /// The document as YAML.
    ///
    /// ```swift
    /// try document.yaml().write(to: URL(fileURLWithPath: "openapi.yaml"))
    /// ```
    public func yaml() -> Data {
        Data(document.yamlText().utf8)
    }

    // MARK: - Operations

    private static func operation<E: Endpoint & Decodable>(
        for type: E.Type, builder: SchemaBuilder, main: APIServer, security: [SecurityScheme]
    ) throws -> (path: String, method: String, operation: JSONValue, tags: [String]) {
        let server = E.server ?? main
        let description = try EndpointDescription(type, builder: builder, server: server, decoded: false)
        let method = description.restful.method.rawValue.lowercased()
        guard ["get", "put", "post", "delete", "options", "head", "patch", "trace"].contains(method) else {
            throw EndpointError(
                kind: .schemaUnavailable, route: String(reflecting: type),
                reason: "its method \(description.restful.method.rawValue) has no place in an OpenAPI 3.1 document, whose path items hold GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH and TRACE only; leave the endpoint out of the document")
        }
        let documentation = (type as? any Documented.Type)?.documentation
        var operation = JSONValue.object([:])
        if let tags = documentation?.tags, !tags.isEmpty { operation["tags"] = .array(tags.map(JSONValue.string)) }
        if let summary = documentation?.summary { operation["summary"] = .string(summary) }
        if let text = documentation?.description { operation["description"] = .string(text) }
        operation["operationId"] = .string(operationID(of: type, builder: builder))
        if !description.parameters.isEmpty {
            operation["parameters"] = .array(description.parameters.map(\.json))
        }
        if let body = description.body {
            var media = JSONValue.object(["schema": body.schema])
            if !body.encoding.isEmpty { media["encoding"] = .object(body.encoding) }
            operation["requestBody"] = .object(["required": .bool(true), "content": .object([.init(key: body.mediaType, value: media)])])
        }
        operation["responses"] = try responses(of: type, builder: builder, server: server, status: documentation?.status)
        if E.requiresAuthorization && !security.isEmpty {
            operation["security"] = .array([.object(security.map { .init(key: $0.name, value: .array([])) })])
        }
        return (description.path, method, operation, documentation?.tags ?? [])
    }

    /// `purchaseCheer` for `PurchaseCheer`; nested types join their names with `_`.
    private static func operationID(of type: Any.Type, builder: SchemaBuilder) -> String {
        let name = builder.name(of: type).replacingOccurrences(of: ".", with: "_")
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    private static func responses<E: Endpoint>(of type: E.Type, builder: SchemaBuilder, server: APIServer, status: Int?) throws -> JSONValue {
        var responses = JSONValue.object([:])
        let payload = E.ReturnPayloadType.self
        func success(_ code: Int, _ content: JSONValue?) {
            var response = JSONValue.object(["description": .string(code == 204 ? "No content" : "Success")])
            if let content { response["content"] = content }
            responses[String(code)] = response
        }
        if payload == EmptyPayload.self {
            success(status ?? 204, nil)
        } else if let streamed = payload as? any StreamedSchema.Type {
            var media = JSONValue.object(["schema": .object(["type": .string("string")])])
            if let element = streamed.elementType {
                media["x-endpointkit-item-schema"] = try builder.probe(any: element).schema
            }
            success(status ?? 200, .object([.init(key: streamed.mediaType, value: media)]))
        } else if payload == Data.self {
            success(status ?? 200, .object(["application/octet-stream": .object(["schema": SchemaBuilder.binary])]))
        } else if payload == String.self {
            success(status ?? 200, .object(["text/plain": .object(["schema": .object(["type": .string("string")])])]))
        } else if let optional = payload as? any SchemaOptional.Type {
            let schema = SchemaBuilder.nonNull(try builder.probe(any: optional.wrappedType).schema)
            success(status ?? 200, .object(["application/json": .object(["schema": schema])]))
            success(204, nil)
        } else {
            let schema = try builder.probe(any: payload).schema
            success(status ?? 200, .object(["application/json": .object(["schema": schema])]))
        }
        var failure = JSONValue.object(["description": .string("An error status")])
        if let errorType = E.errorPayloadType ?? server.errorPayloadType {
            failure["content"] = .object(["application/json": .object(["schema": try builder.probe(any: errorType).schema])])
        }
        responses["default"] = failure
        return responses
    }
}

extension EndpointDescription.Parameter {
    var json: JSONValue {
        var value = JSONValue.object(["name": .string(name), "in": .string(location)])
        if let description { value["description"] = .string(description) }
        value["required"] = .bool(isRequired)
        if location == "query", schema["type"] == .string("string"), schema["format"] == nil, schema["enum"] == nil {
            value["allowEmptyValue"] = .bool(true)  // an empty string is sent as `name=`
        }
        if let style {
            value["style"] = .string(style.name)
            value["explode"] = .bool(style.explode)
        }
        value["schema"] = schema
        return value
    }
}
