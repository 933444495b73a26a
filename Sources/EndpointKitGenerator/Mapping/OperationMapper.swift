#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Yams

/// Turns each operation of a document into an endpoint struct.
///
/// - **Name:** the `operationId` in UpperCamelCase without FastAPI's suffix (or the method and the
///   path when there is none); collisions get `2`, `3`… in document order.
/// - **Path:** `Restful(.get, "items/{itemId}")`: placeholders renamed after their Swift properties.
/// - **Parameters:** path and query parameters are properties (optional unless required); a query
///   parameter of a method with a body is `@QueryItem`; `explode: false` lists are
///   `@EncodedArray(.commaSeparated)`; headers are `@HeaderField("Name")` optionals. Cookie
///   parameters, `content` parameters and the pipe, space and form-object styles are refused.
/// - **Body:** JSON, form and multipart objects become the endpoint's own properties (binary
///   multipart parts are `MultipartFile`s; in a `PATCH`, a property that may be `null` is
///   `Nullable<T>?`, so that `.null` sends `null`); any other JSON body is one `@Body` property; other
///   media types are `.raw(contentType:)` with `let body: Data` (`String` for `text/…`). XML is refused.
/// - **Result:** the first 2xx response: its JSON schema, `ServerSentEvents<T>` for
///   `text/event-stream`, `JSONLines<T>` for JSON Lines, `String` for text, `Data` for other media,
///   `EmptyPayload` when it has no content.
/// - **Errors:** the first error response with a JSON component schema is the error payload type,
///   set on the server when most operations share it and on the endpoint otherwise.
struct OperationMapper {
    let schemas: SchemaMapper
    let keyStyle: KeyStyle
    let root: Node
    /// Whether the generated server adds an authorization middleware (then operations without
    /// security opt out of it).
    let serverAuthorizes: Bool
    /// The error payload type the server declares, so endpoints with it say nothing.
    let serverErrorType: String?
    /// Struct properties by type name, for the pagination's items.
    let structProperties: [String: [Property]]
    /// The names of the types nested in each component, for the pagination's items: an item type
    /// nested in the page is named through it (`[AnimalPage.DataItem]`).
    var nestedTypeNames: [String: Set<String>] = [:]
    /// The component aliases that name a list, looked through for pagination.
    var listAliases: Set<String> = []

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// One operation of the document.
    struct Operation {
        var path: String
        var method: String
        var node: Node
        var pointer: String
        var pathItem: Node
        var typeName: String = ""
        var tag: String? { node["tags"]?.sequence?.first?.string }

        /// Every operation in document order, named.
        static func all(in root: Node, avoiding reserved: Set<String>) -> [Operation] {
            var operations: [Operation] = []
            for (path, item) in root["paths"]?.mapping ?? [:] {
                guard let path = path.string else { continue }
                for method in OperationMapper.methods {
                    guard let node = item[method] else { continue }
                    operations.append(Operation(path: path, method: method, node: node,
                                                pointer: "#/paths/" + DocumentLoader.pointerEscaped(path) + "/" + method, pathItem: item))
                }
            }
            let names = operations.map { operation in
                if let id = operation.node["operationId"]?.string {
                    return SwiftNames.typeName(forOperationID: id, method: operation.method, path: operation.path)
                }
                return SwiftNames.upperCamel(operation.method + " " + operation.path.replacingOccurrences(of: "{", with: " by ").replacingOccurrences(of: "}", with: ""))
            }
            for (index, name) in SwiftNames.unique(names, avoiding: reserved).enumerated() { operations[index].typeName = name }
            return operations
        }
    }

    /// What the endpoint's `Documented` conformance says, for `--documented`.
    struct Notes {
        var summary: String?
        var description: String?
        var tags: [String]
        var status: Int
        var properties: [(name: String, description: String)]
    }

    // MARK: - One endpoint

    func endpoint(for operation: Operation) throws -> (Declaration, Notes) {
        var properties: [Property] = []
        var nested: [Declaration] = []
        var members: [String] = []
        // Decodable too: EndpointKitContract exports only decodable endpoints, and EndpointKitTools
        // reads a model's arguments into one.
        var conformances = ["Endpoint", "Decodable"]
        let method = operation.method
        let body = try requestBody(of: operation)
        var template = String(operation.path.drop { $0 == "/" })

        // Parameters.
        for (parameter, pointer) in try parameters(of: operation) {
            guard let name = parameter["name"]?.string, let location = parameter["in"]?.string else { continue }
            if parameter["content"] != nil {
                throw GenerationError(path: pointer + "/content", problem: "the parameter \"\(name)\" is described by a media type, which EndpointKit does not serialize into \(location == "header" ? "a header" : "the URL")",
                                      fix: "Describe it with a schema and a style")
            }
            let schema = parameter["schema"] ?? Node.mapping([:])
            let required = parameter["required"]?.bool == true || location == "path"
            let note = SchemaMapper.documentation(of: parameter)
            switch location {
            case "path":
                let mapped = try schemas.map(schema, at: pointer + "/schema", named: schemas.nestedName(for: name), nested: &nested)
                if keyStyle == .asWritten {
                    // Keys as written: the placeholder keeps the document's name, bound through the
                    // property's coding key, so the exported document has the source's paths.
                    let (propertyName, codingKey) = keyStyle.property(forKey: name)
                    properties.append(Property(name: propertyName, codingKey: codingKey, type: mapped.type, isOptional: false, documentation: note))
                } else {
                    let propertyName = SwiftNames.lowerCamel(name)
                    template = template.replacingOccurrences(of: "{\(name)}", with: "{\(propertyName)}")
                    properties.append(Property(name: propertyName, type: mapped.type, isOptional: false, documentation: note))
                }
            case "query":
                var property = try schemas.property(name, schema: schema, at: pointer + "/schema", required: required, nested: &nested)
                property.documentation = note
                property.defaultValue = nil
                let style = parameter["style"]?.string ?? "form"
                let explode = parameter["explode"]?.bool ?? (style == "form")
                let kind = schemas.types(of: schemas.withoutNull(try schemas.resolved(schema, at: pointer)).0).first
                switch (style, kind) {
                case ("form", "object"?) where explode, ("spaceDelimited", _), ("pipeDelimited", _), ("deepObject", "array"?):
                    throw GenerationError(path: pointer + "/style", problem: "the query parameter \"\(name)\" uses the \(style)\(explode ? "" : " unexploded") style\(kind == "object" ? " for an object" : ""), which EndpointKit cannot send (it sends objects as \(name)[key]=value and lists as repeated keys or comma-separated)",
                                          fix: "Use style deepObject for an object, or form (exploded, or not for comma-separated lists)")
                case ("form", "array"?) where !explode:
                    // Not optional: the wrapper takes a list, and an empty one sends nothing.
                    property.wrapper = "@EncodedArray(.commaSeparated)"
                    property.isOptional = false
                    if !required { property.defaultValue = "[]" }
                default: break
                }
                if body != nil || ["post", "put", "patch"].contains(method) {
                    if property.wrapper != nil {
                        throw GenerationError(path: pointer, problem: "the comma-separated query parameter \"\(name)\" belongs to a \(method.uppercased()) with a body, where EndpointKit has no comma-separated query property",
                                              fix: "Use an exploded form list (repeated keys)")
                    }
                    if body != nil { property.wrapper = "@QueryItem" }
                }
                properties.append(property)
            case "header":
                if ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }  // OpenAPI ignores these
                let mapped = try schemas.map(schema, at: pointer + "/schema", named: schemas.nestedName(for: name), nested: &nested)
                var documentation = note
                if required { documentation += documentation.isEmpty ? ["Required."] : ["", "Required."] }
                properties.append(Property(name: SwiftNames.lowerCamel(name), type: mapped.type, isOptional: true, documentation: documentation,
                                           wrapper: "@HeaderField(\(SwiftWriter.literal(name)))"))
            case "cookie":
                throw GenerationError(path: pointer, problem: "the cookie parameter \"\(name)\" cannot be sent by an endpoint (cookies belong to the URL session's cookie storage)",
                                      fix: "Set the cookie through HTTPCookieStorage, or describe it as a header")
            default:
                throw GenerationError(path: pointer + "/in", problem: "\"\(location)\" is not a parameter location", fix: "Use path, query or header")
            }
        }

        // The body.
        var bodyFormat: String?
        if let body {
            if method == "get" || method == "head" {
                throw GenerationError(path: body.pointer, problem: "a \(method.uppercased()) with a request body", fix: "Send the values as query parameters")
            }
            let made = try bodyProperties(body, method: method, taken: Set(properties.map(\.name)), nested: &nested)
            properties += made.properties
            bodyFormat = made.format
        } else if ["post", "put", "patch"].contains(method) {
            bodyFormat = ".empty"
        }

        // The result.
        let before = nested.count
        let result = try self.result(of: operation, nested: &nested)
        for index in before..<nested.count { nested[index] = nested[index].readOnly }  // the answer's types are only read
        if !result.alias.isEmpty { members.append(result.alias) }

        // Errors.
        if let errorType = try errorType(of: operation), errorType != serverErrorType {
            members.append("static var errorPayloadType: (any (Decodable & Sendable).Type)? { \(errorType).self }")
        }

        // Authorization.
        if serverAuthorizes, !requiresAuthorization(operation) {
            members.append("static var requiresAuthorization: Bool { false }")
        }

        // Pagination.
        if let pagination = pagination(of: operation, properties: &properties, result: result, nested: nested) {
            conformances.append("PaginatedEndpoint")
            members.append("static var pagination: Pagination<Self> { \(pagination.strategy) }")
            if let items = pagination.items { members.append(items) }
        }

        let unique = SwiftNames.unique(properties.map(\.name), avoiding: ["endpoint", "response"])
        for index in properties.indices where properties[index].name != unique[index] {
            if properties[index].codingKey == nil, properties[index].wrapper?.hasPrefix("@HeaderField") != true {
                properties[index].codingKey = keyStyle == .snakeCase ? properties[index].name : SwiftNames.toSnakeCase(properties[index].name)
            }
            template = template.replacingOccurrences(of: "{\(properties[index].name)}", with: "{\(unique[index])}")
            properties[index].name = unique[index]
        }
        var restful = "Restful(\(OperationMapper.methodLiteral(method)), \(SwiftWriter.literal(template))"
        if let bodyFormat { restful += ", body: \(bodyFormat)" }
        restful += ")"

        var documentation: [String] = []
        let summary = operation.node["summary"]?.string
        let description = operation.node["description"]?.string
        for text in [summary, description].compactMap({ $0 }) where !text.isEmpty {
            if !documentation.isEmpty { documentation.append("") }
            documentation += text.documentationLines
        }
        if !documentation.isEmpty { documentation.append("") }
        documentation.append("`\(method.uppercased()) \(operation.path)`")
        if operation.node["deprecated"]?.bool == true { documentation += ["", "Deprecated."] }

        let hasWrappers = properties.contains { $0.wrapper != nil }
        let shape = StructShape(properties: properties, endpoint: EndpointShape(conformances: conformances, restful: restful, members: members, hasWrappers: hasWrappers))
        let notes = Notes(summary: summary, description: description, tags: operation.node["tags"]?.sequence?.compactMap(\.string) ?? [],
                          status: result.status, properties: properties.compactMap { property in
                              property.documentation.isEmpty ? nil : (property.name, property.documentation.joined(separator: "\n"))
                          })
        return (Declaration(name: operation.typeName, documentation: documentation, kind: .structure(shape), nested: nested), notes)
    }

    static func methodLiteral(_ method: String) -> String {
        ["get", "put", "post", "delete", "options", "head", "patch"].contains(method) ? "." + method : "RequestMethod(rawValue: \"\(method.uppercased())\")"
    }

    // MARK: - Parameters

    /// The path item's parameters, replaced by the operation's own of the same name and location.
    private func parameters(of operation: Operation) throws -> [(Node, String)] {
        var result: [(Node, String)] = []
        let itemPointer = String(operation.pointer.dropLast(operation.method.count + 1))
        for (source, pointer) in [(operation.pathItem["parameters"], itemPointer + "/parameters"), (operation.node["parameters"], operation.pointer + "/parameters")] {
            for (index, entry) in (source?.sequence ?? []).enumerated() {
                let (parameter, at) = try resolve(entry, at: pointer + "/\(index)", in: "parameters")
                let key = (parameter["name"]?.string, parameter["in"]?.string)
                result.removeAll { $0.0["name"]?.string == key.0 && $0.0["in"]?.string == key.1 }
                result.append((parameter, at))
            }
        }
        return result
    }

    /// A `$ref` into `#/components/<section>`, followed.
    private func resolve(_ node: Node, at pointer: String, in section: String) throws -> (Node, String) {
        guard let reference = node["$ref"]?.string else { return (node, pointer) }
        let prefix = "#/components/\(section)/"
        guard reference.hasPrefix(prefix), let target = root["components"]?[section]?[String(reference.dropFirst(prefix.count))] else {
            throw GenerationError(path: pointer, problem: "the reference \"\(reference)\" names nothing in #/components/\(section)", fix: "Point it at an existing component")
        }
        return (target, reference)
    }

    // MARK: - Bodies

    private struct Body {
        var mediaType: String
        var schema: Node
        var pointer: String
    }

    private func requestBody(of operation: Operation) throws -> Body? {
        guard let entry = operation.node["requestBody"] else { return nil }
        let (body, pointer) = try resolve(entry, at: operation.pointer + "/requestBody", in: "requestBodies")
        let content = body["content"]?.mapping ?? [:]
        let types = content.compactMap { $0.key.string }
        let preferred = types.first(where: OperationMapper.isJSON) ?? types.first { $0 == "multipart/form-data" }
            ?? types.first { $0 == "application/x-www-form-urlencoded" } ?? types.first { !$0.contains("xml") }
        guard let mediaType = preferred else {
            if types.isEmpty { return nil }
            throw GenerationError(path: pointer + "/content", problem: "the body is XML (\(types.joined(separator: ", "))), which EndpointKit does not write",
                                  fix: "Offer application/json as well, or send the XML as a raw body you build yourself")
        }
        let media = content[Node(mediaType)]
        return Body(mediaType: mediaType, schema: media?["schema"] ?? .mapping([:]),
                    pointer: pointer + "/content/" + DocumentLoader.pointerEscaped(mediaType) + "/schema")
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let base = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return base == "application/json" || base.hasSuffix("+json")
    }

    private func bodyProperties(_ body: Body, method: String, taken: Set<String>, nested: inout [Declaration]) throws -> (properties: [Property], format: String?) {
        let isJSON = OperationMapper.isJSON(body.mediaType)
        let isForm = body.mediaType == "application/x-www-form-urlencoded"
        let isMultipart = body.mediaType == "multipart/form-data"
        var format: String?
        if isJSON {
            let defaultFormat = ["post", "put", "patch"].contains(method)
            format = body.mediaType == "application/json" ? (defaultFormat ? nil : ".json") : ".json(contentType: \(SwiftWriter.literal(body.mediaType)))"
        } else if isForm {
            format = ".form"
        } else if isMultipart {
            format = ".multipart"
        } else {
            let isText = body.mediaType.hasPrefix("text/")
            return ([Property(name: "body", type: isText ? "String" : "Data", isOptional: false)], ".raw(contentType: \(SwiftWriter.literal(body.mediaType)))")
        }
        let resolved = schemas.withoutNull(try schemas.resolved(body.schema, at: body.pointer)).0
        let isObject = resolved["properties"] != nil || resolved["allOf"] != nil && resolved["oneOf"] == nil && resolved["anyOf"] == nil
        if isObject, resolved["additionalProperties"]?.mapping == nil,
           let made = try? schemas.structure(flattening: body.schema, at: body.pointer, named: "Body"),
           case .structure(var flattened) = made.kind, !flattened.properties.contains(where: { taken.contains($0.name) }) {
            nested += made.nested
            for index in flattened.properties.indices {
                var property = flattened.properties[index]
                if isMultipart, property.type == "Data" { property.type = "MultipartFile" }
                if isMultipart, property.type == "[Data]" { property.type = "[MultipartFile]" }
                if method == "patch", isJSON, property.allowsNull, property.defaultValue == nil {
                    property.type = "Nullable<\(property.type)>"
                }
                flattened.properties[index] = property
            }
            return (flattened.properties, format)
        }
        if isForm || isMultipart {
            throw GenerationError(path: body.pointer, problem: "a \(isForm ? "form" : "multipart") body that is not an object of properties",
                                  fix: "Describe the body as an object whose properties are the fields")
        }
        let mapped = try schemas.map(body.schema, at: body.pointer, named: "Body", nested: &nested)
        return ([Property(name: "body", type: mapped.type, isOptional: false, wrapper: "@Body")], format)
    }

    // MARK: - Results

    struct Result {
        /// `typealias ReturnPayloadType = …`; empty when the payload is a nested struct of that name.
        var alias: String
        var status: Int
        /// The payload's type when it is a struct (declared here or a component), for pagination.
        var structName: String?
        var isList: Bool
        var hasLinkHeader: Bool
    }

    private func result(of operation: Operation, nested: inout [Declaration]) throws -> Result {
        let responses = operation.node["responses"]?.mapping ?? [:]
        let success = responses.compactMap { key, value -> (String, Node)? in
            guard let code = key.string, code.hasPrefix("2") else { return nil }
            return (code, value)
        }.min { $0.0 < $1.0 }
        guard let (code, entry) = success else {
            return Result(alias: "typealias ReturnPayloadType = EmptyPayload", status: 204, structName: nil, isList: false, hasLinkHeader: false)
        }
        let status = Int(code) ?? 200
        let (response, pointer) = try resolve(entry, at: operation.pointer + "/responses/" + code, in: "responses")
        let hasLink = response["headers"]?.mapping?.contains { $0.key.string?.lowercased() == "link" } ?? false
        let content = response["content"]?.mapping ?? [:]
        let types = content.compactMap { $0.key.string }
        guard !types.isEmpty else {
            return Result(alias: "typealias ReturnPayloadType = EmptyPayload", status: status, structName: nil, isList: false, hasLinkHeader: hasLink)
        }
        func media(_ type: String) -> (Node, String) {
            let node = content[Node(type)] ?? .mapping([:])
            return (node, pointer + "/content/" + DocumentLoader.pointerEscaped(type))
        }
        if let json = types.first(where: OperationMapper.isJSON) {
            let (node, at) = media(json)
            guard let schema = node["schema"] else {
                return Result(alias: "typealias ReturnPayloadType = JSONValue", status: status, structName: nil, isList: false, hasLinkHeader: hasLink)
            }
            let mapped = try schemas.map(schema, at: at + "/schema", named: "ReturnPayloadType", nested: &nested)
            let isList = mapped.type.hasPrefix("[") && !mapped.type.contains(":") || listAliases.contains(mapped.type)
            if mapped.type == "ReturnPayloadType" {
                return Result(alias: "", status: status, structName: "ReturnPayloadType", isList: false, hasLinkHeader: hasLink)
            }
            let type = mapped.type + (mapped.allowsNull ? "?" : "")
            return Result(alias: "typealias ReturnPayloadType = \(type)", status: status, structName: mapped.allowsNull ? nil : mapped.type, isList: isList, hasLinkHeader: hasLink)
        }
        if let events = types.first(where: { $0.hasPrefix("text/event-stream") }) {
            let (node, at) = media(events)
            var element = "String"
            // OpenAPI 3.2's itemSchema, or the extension EndpointKitContract writes for 3.1.
            if let item = node["itemSchema"] ?? node["x-endpointkit-item-schema"] {
                element = try schemas.map(item, at: at + "/itemSchema", named: "Event", nested: &nested).type
            }
            return Result(alias: "typealias ReturnPayloadType = ServerSentEvents<\(element)>", status: status, structName: nil, isList: false, hasLinkHeader: hasLink)
        }
        let lineTypes = ["application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/json-seq"]
        if let lines = types.first(where: { type in lineTypes.contains { type.hasPrefix($0) } }) {
            let (node, at) = media(lines)
            var element = "JSONValue"
            if let item = node["itemSchema"] {
                element = try schemas.map(item, at: at + "/itemSchema", named: "Row", nested: &nested).type
            } else if let schema = node["schema"] {
                let items = schema["items"]
                element = try schemas.map(items ?? schema, at: at + (items == nil ? "/schema" : "/schema/items"), named: "Row", nested: &nested).type
            }
            return Result(alias: "typealias ReturnPayloadType = JSONLines<\(element)>", status: status, structName: nil, isList: false, hasLinkHeader: hasLink)
        }
        let isText = types.contains { $0.hasPrefix("text/") }
        return Result(alias: "typealias ReturnPayloadType = \(isText ? "String" : "Data")", status: status, structName: nil, isList: false, hasLinkHeader: hasLink)
    }

    /// The type of the first error response with a JSON component schema.
    func errorType(of operation: Operation) throws -> String? {
        let responses = operation.node["responses"]?.mapping ?? [:]
        let errors = responses.compactMap { key, value -> (String, Node)? in
            guard let code = key.string, code.hasPrefix("4") || code.hasPrefix("5") || code == "default" else { return nil }
            return (code == "default" ? "999" : code, value)
        }.sorted { $0.0 < $1.0 }
        for (code, entry) in errors {
            let (response, _) = try resolve(entry, at: operation.pointer + "/responses/" + code, in: "responses")
            for (type, media) in response["content"]?.mapping ?? [:] where OperationMapper.isJSON(type.string ?? "") {
                if let reference = media["schema"]?["$ref"]?.string, let key = try? schemas.componentKey(reference, at: "#") {
                    return schemas.componentNames[key]
                }
            }
        }
        return nil
    }

    // MARK: - Security and pagination

    func requiresAuthorization(_ operation: Operation) -> Bool {
        let security = operation.node["security"] ?? root["security"]
        return !(security?.sequence?.isEmpty ?? true)
    }

    private func pagination(of operation: Operation, properties: inout [Property], result: Result, nested: [Declaration]) -> (strategy: String, items: String?)? {
        // Where a page's items are: the payload itself, or its one list property.
        var items: String?
        var payloadProperties: [Property] = []
        if result.isList {
            items = nil
        } else if let name = result.structName, let fields = structProperties[name] ?? nested.first(where: { $0.name == name }).flatMap(\.structProperties) {
            payloadProperties = fields
            let lists = fields.filter { $0.type.hasPrefix("[") && !$0.type.contains(":") && !$0.isOptional }
            guard lists.count == 1 else { return nil }
            let list = lists[0]
            let payload = name == "ReturnPayloadType" ? "ReturnPayloadType" : name
            let inner = nestedTypeNames[name] ?? Set(nested.first(where: { $0.name == name })?.nested.map(\.name) ?? [])
            var element = String(list.type.dropFirst().dropLast())
            if inner.contains(String(element.prefix { $0 != "?" && $0 != "<" && $0 != "." })) { element = payload + "." + element }
            items = "static func items(in page: \(payload)) -> [\(element)] { page.\(SwiftNames.escaped(list.name)) }"
        } else {
            return nil
        }
        func queryProperty(_ keys: [String], type: String) -> Int? {
            // An offset or page of any integer format is paged as an `Int`, which Pagination takes.
            let types = type == "Int" ? ["Int", "Int32", "Int64"] : [type]
            return properties.firstIndex { property in
                property.wrapper == nil && types.contains(property.type) && keys.contains(property.codingKey ?? SwiftNames.toSnakeCase(property.name))
                    && (keyStyle == .snakeCase || keys.contains(property.codingKey ?? property.name))
            }
        }
        var strategies: [(String, Int?)] = []
        if let cursor = queryProperty(["cursor", "page_token", "pageToken"], type: "String"), properties[cursor].isOptional,
           let next = payloadProperties.first(where: { ["nextCursor", "next_cursor", "nextPageToken", "next_page_token"].contains($0.codingKey ?? $0.name) && $0.type == "String" && $0.isOptional }) {
            strategies.append((".cursor(from: \\.\(next.name), into: \\.\(properties[cursor].name))", cursor))
        }
        if let offset = queryProperty(["offset", "skip"], type: "Int") {
            strategies.append((".offset(\\.\(properties[offset].name))", offset))
        }
        if let page = queryProperty(["page"], type: "Int") {
            strategies.append((".pageNumber(\\.\(properties[page].name))", page))
        }
        if result.hasLinkHeader { strategies.append((".nextLink", nil)) }
        guard strategies.count == 1, let (strategy, index) = strategies.first else { return nil }
        if let index {
            properties[index].isVariable = true
            if properties[index].type.hasPrefix("Int") { properties[index].type = "Int" }
        }
        return (strategy, items)
    }
}

extension Declaration {
    /// The properties when this is a struct.
    var structProperties: [Property]? {
        if case .structure(let shape) = kind { shape.properties } else { nil }
    }
}
#endif
