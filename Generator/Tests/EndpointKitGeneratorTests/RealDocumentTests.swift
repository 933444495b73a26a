import EndpointKitGenerator
import Foundation
import Testing

/// What OpenAI's and Anthropic's documents showed the generated code getting wrong, each on the
/// smallest document that shows it. (CI also generates and compiles both documents whole.)
@Suite struct RealDocumentTests {
    static func files(_ yaml: String, options: EndpointGenerator.Options = .init()) throws -> [String: String] {
        let files = try EndpointGenerator.generate(DocumentLoader.load(Data(yaml.utf8)), options: options).files
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
    }

    @Test func `the items of a list alias do not take the name of another component`() throws {
        let schemas = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas:
                ToolCall: { type: object, required: [id], properties: { id: { type: string } } }
                Custom: { type: object, required: [name], properties: { name: { type: string } } }
                ToolCalls:
                  type: array
                  items:
                    oneOf: [ { $ref: "#/components/schemas/ToolCall" }, { $ref: "#/components/schemas/Custom" } ]
                    discriminator: { propertyName: type }
            """)["Schemas.swift"])
        #expect(schemas.contains("typealias ToolCalls = [ToolCallValue]"))
        #expect(schemas.contains("nonisolated enum ToolCallValue: Codable, Sendable {"))
        #expect(schemas.contains("nonisolated struct ToolCall: Codable, Sendable {"))
    }

    /// Cohere's `Chatv2.documents`: a list of strings or `Document`s. Its items' enum was
    /// `Chatv2.Document`, so `case document(Document)` inside it meant the enum itself
    /// ("recursive enum 'Chatv2.Document' is not marked 'indirect'").
    @Test func `a nested type does not hide the component its parent refers to`() throws {
        let endpoints = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /chat:
                post:
                  operationId: chat
                  requestBody:
                    content:
                      application/json:
                        schema:
                          type: object
                          properties:
                            documents:
                              type: array
                              items: { oneOf: [ { type: string }, { $ref: "#/components/schemas/Document" } ] }
                  responses: { "204": { description: done } }
            components:
              schemas:
                Document: { type: object, required: [id], properties: { id: { type: string } } }
            """)["Endpoints.swift"])
        #expect(endpoints.contains("var documents: [DocumentValue]?"))
        #expect(endpoints.contains("enum DocumentValue: Codable, Sendable {"))
        #expect(endpoints.contains("case document(Document)"))
    }

    @Test func `a tag named like a file written besides keeps its endpoints`() throws {
        let files = try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /schemas: { get: { operationId: listSchemas, tags: [Schemas], responses: { "200": { description: ok } } } }
            components: { schemas: { Unused: { type: object, properties: { a: { type: string } } } } }
            """)
        #expect(files.keys.sorted() == ["Schemas.swift", "SchemasEndpoints.swift", "TServer.swift"])
        #expect(files["SchemasEndpoints.swift"]?.contains("struct ListSchemas: Endpoint") == true)
        #expect(files["Schemas.swift"]?.contains("struct Unused") == true)
    }

    @Test(arguments: ["Collection", "Sequence", "Identifiable", "Image", "Text", "Color", "Throttle"])
    func `a component named like a type the app uses beside it is renamed`(name: String) throws {
        let schemas = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components: { schemas: { \(name): { type: object, properties: { a: { type: string } } } } }
            """)["Schemas.swift"])
        #expect(schemas.contains("nonisolated struct \(name)Model: Codable, Sendable {"))
        #expect(!schemas.contains("struct \(name):"))
    }

    @Test func `an unused component that holds an answer-only one is Decodable too`() throws {
        let files = try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /runs: { get: { operationId: getRun, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Run" } } } } } } }
            components:
              schemas:
                Run: { type: object, required: [id], properties: { id: { type: string } } }
                RunEvent: { type: object, required: [data], properties: { data: { $ref: "#/components/schemas/Run" } } }
            """)
        #expect(files["Endpoints.swift"]?.contains("nonisolated struct Run: Decodable, Sendable {") == true)
        #expect(files["Schemas.swift"]?.contains("nonisolated struct RunEvent: Decodable, Sendable {") == true)
    }

    @Test func `a page's items nested in the page are named through it`() throws {
        let endpoints = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /items:
                get:
                  operationId: listItems
                  parameters: [ { name: cursor, in: query, schema: { type: string } } ]
                  responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Page" } } } } }
            components:
              schemas:
                A: { type: object, required: [kind], properties: { kind: { const: a } } }
                B: { type: object, required: [kind], properties: { kind: { const: b } } }
                Page:
                  type: object
                  required: [data]
                  properties:
                    next_cursor: { type: string }
                    data: { type: array, items: { oneOf: [ { $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" } ], discriminator: { propertyName: kind } } }
            """)["Endpoints.swift"])
        #expect(endpoints.contains("static func items(in page: Page) -> [Page.DataValueItem] { page.data }"), "\(endpoints)")
    }

    @Test func `a discriminator without a mapping reads the value each alternative fixes, and its component's name`() throws {
        let schemas = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas:
                FunctionCall: { type: object, required: [type], properties: { type: { type: string, enum: [function] } } }
                InputMessage: { type: object, required: [type], properties: { type: { type: string, enum: [message] } } }
                OutputMessage: { type: object, required: [type], properties: { type: { type: string, enum: [message] } } }
                Item:
                  oneOf: [ { $ref: "#/components/schemas/FunctionCall" }, { $ref: "#/components/schemas/InputMessage" }, { $ref: "#/components/schemas/OutputMessage" } ]
                  discriminator: { propertyName: type }
            """)["Schemas.swift"])
        #expect(schemas.contains(#"case "function", "FunctionCall": self = try .function(FunctionCall(from: decoder))"#), "\(schemas)")
        // Two alternatives fix "message": neither takes it, where the first would have won every time.
        #expect(schemas.contains(#"case "InputMessage": self = try .inputMessage(InputMessage(from: decoder))"#))
        #expect(schemas.contains(#"case "OutputMessage": self = try .outputMessage(OutputMessage(from: decoder))"#))
    }

    @Test func `a relative server URL is the base path below the origin passed`() throws {
        let server = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: Prefect, version: "1" }
            servers: [ { url: /api/v2/ } ]
            paths: {}
            """)["PrefectServer.swift"])
        #expect(server.contains("    static func prefect(origin: URL, transport: any HTTPTransport = URLSessionTransport.shared) -> APIServer {"))
        #expect(server.contains(#"            origin: origin.appendingPathComponent("api/v2"),"#), "\(server)")
    }

    @Test func `an offset of any integer format pages a list`() throws {
        let endpoints = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /items:
                get:
                  operationId: listItems
                  parameters:
                    - { name: limit, in: query, schema: { type: integer, format: int32 } }
                    - { $ref: "#/components/parameters/Offset" }
                  responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } } }
            components:
              parameters:
                Offset: { name: offset, in: query, schema: { type: integer, format: int64 } }
            """)["Endpoints.swift"])
        #expect(endpoints.contains("nonisolated struct ListItems: Endpoint, Decodable, PaginatedEndpoint {"), "\(endpoints)")
        #expect(endpoints.contains("    var offset: Int?\n"))
        #expect(endpoints.contains(#"    static var pagination: Pagination<Self> { .offset(\.offset) }"#))
    }

    @Test func `alternatives that are all strings are a String, enumerations and references included`() throws {
        let schemas = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas:
                ModelName: { type: string, enum: [gpt-5, gpt-5-mini] }
                Request:
                  type: object
                  required: [model]
                  properties:
                    model: { anyOf: [ { type: string }, { $ref: "#/components/schemas/ModelName" } ] }
                    size: { anyOf: [ { type: string, enum: [small, large] }, { type: string, pattern: "^[0-9]+x[0-9]+$" }, { type: "null" } ] }
            """)["Schemas.swift"])
        #expect(schemas.contains("    let model: String\n"), "\(schemas)")
        #expect(schemas.contains("    var size: String?\n"), "\(schemas)")
    }

    @Test func `one object without a key of its own is what an object with none of the others' keys is`() throws {
        let schemas = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas:
                Requested: { type: object, required: [id], properties: { id: { type: string } } }
                Responded: { type: object, required: [id, approved], properties: { id: { type: string }, approved: { type: boolean } } }
                Approval: { anyOf: [ { $ref: "#/components/schemas/Requested" }, { $ref: "#/components/schemas/Responded" }, { type: "null" } ] }
            """)["Schemas.swift"])
        #expect(schemas.contains("""
                    let object = try decoder.container(keyedBy: CodingKeys.self)
                    if object.contains(.approved) {
                        self = try .responded(container.decode(Responded.self))
                        return
                    }
                    self = try .requested(container.decode(Requested.self))
            """), "\(schemas)")
        #expect(!schemas.contains("if let value = try? container.decode(Requested.self)"))
    }

    @Test func `a string beside a discriminated union of objects is told apart by its JSON type`() throws {
        let schemas = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas:
                Auto: { type: object, required: [type], properties: { type: { const: auto } } }
                Named: { type: object, required: [type, name], properties: { type: { const: named }, name: { type: string } } }
                Choice:
                  anyOf:
                    - { type: string, enum: [none, required] }
                    - { oneOf: [ { $ref: "#/components/schemas/Auto" }, { $ref: "#/components/schemas/Named" } ], discriminator: { propertyName: type } }
            """)["Schemas.swift"])
        #expect(schemas.contains("nonisolated enum Choice: Codable, Sendable {"), "\(schemas)")
        #expect(schemas.contains("""
                case string(Option1)
                case object(Option2)
            """), "\(schemas)")
        #expect(schemas.contains("self = try .object(container.decode(Option2.self))"))
    }

    @Test func `a fall-back inside a nullable wrapper names a path the document has`() throws {
        let output = try EndpointGenerator.generate(DocumentLoader.load(Data("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas:
                A:
                  type: object
                  properties:
                    x: { anyOf: [ { type: "null" }, { type: object, patternProperties: { "^a": { type: string } } } ] }
            """.utf8)), options: .init(fallsBack: true))
        #expect(output.fallbacks.map(\.path) == ["#/components/schemas/A/properties/x/anyOf/1/patternProperties"])
    }
}
