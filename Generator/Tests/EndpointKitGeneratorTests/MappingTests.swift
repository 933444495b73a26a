import EndpointKitGenerator
import Foundation
import Testing

/// Single mapping rules, each on the smallest document that shows it. (The snapshots show them
/// together, and compile them.)
@Suite struct MappingTests {
    static func files(_ yaml: String) throws -> [String: String] {
        let files = try EndpointGenerator.generate(DocumentLoader.load(Data(yaml.utf8))).files
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
    }

    static func schemas(_ schemas: String, openapi: String = "3.1.0") throws -> String {
        try files("""
            openapi: \(openapi)
            info: { title: T, version: "1" }
            paths: {}
            components:
              schemas: \(schemas)
            """)["Schemas.swift"] ?? ""
    }

    @Test(arguments: [
        "{ anyOf: [ { type: string }, { type: 'null' } ] }",      // FastAPI's usual form
        "{ oneOf: [ { type: 'null' }, { type: string } ] }",
        "{ type: [string, 'null'] }",
        "{ type: string, enum: [a, b, null] }",
    ])
    func everySpellingOfNullIsAnOptional(schema: String) throws {
        let text = try MappingTests.schemas("{ A: { type: object, required: [next_cursor], properties: { next_cursor: \(schema) } } }")
        #expect(text.contains("var nextCursor: String?") || text.contains("var nextCursor: NextCursor?"), "\(text)")
    }

    /// Chroma 1.5.9's list of collections: `limit` and `offset` (int32) and a payload that is a
    /// component naming a list (`Vec`). Offset pagination applies through the alias.
    @Test func offsetPaginationLooksThroughAComponentThatNamesAList() throws {
        let files = try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /collections:
                get:
                  operationId: listCollections
                  parameters:
                    - { name: limit, in: query, schema: { type: integer, format: int32, minimum: 0 } }
                    - { name: offset, in: query, schema: { type: integer, format: int32, minimum: 0 } }
                  responses:
                    "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Vec" } } } }
            components:
              schemas:
                Vec: { type: array, items: { $ref: "#/components/schemas/Collection" } }
                Vecs: { $ref: "#/components/schemas/Vec" }
                Collection: { type: object, required: [id], properties: { id: { type: string } } }
            """)
        let endpoints = try #require(files["Endpoints.swift"])
        #expect(endpoints.contains("nonisolated struct ListCollections: Endpoint, Decodable, PaginatedEndpoint {"), "\(endpoints)")
        #expect(endpoints.contains(#"    static var pagination: Pagination<Self> { .offset(\.offset) }"#))
        #expect(endpoints.contains("    var offset: Int?"))
    }

    /// OpenAI's `file_search`: an object whose `oneOf` alternatives only require different keys
    /// of its own properties. Each alternative requires a key no other has: README's rule for an
    /// enum, which fell back to JSONValue.
    @Test func alternativesThatOnlyRequireDifferentKeysAreAnEnum() throws {
        let schemas = try Self.schemas("""
            {FileSearch: {type: object, properties: {vector_store_ids: {type: array, items: {type: string}}, vector_stores: {type: array, items: {type: string}}},
                          oneOf: [{required: [vector_store_ids]}, {required: [vector_stores]}]}}
            """)
        #expect(schemas.contains("nonisolated enum FileSearch: Codable, Sendable {"), "\(schemas)")
        #expect(schemas.contains("    case vectorStoreIds(VectorStoreIds)"))
        #expect(schemas.contains("    case vectorStores(VectorStores)"))
        #expect(schemas.contains("        if object.contains(.vectorStoreIds) {"))
        #expect(schemas.contains("        let vectorStoreIds: [String]"))
        #expect(!schemas.contains("JSONValue"))
    }

    /// Anthropic's `BetaManagedAgentsAgentUnionParams`: a string, or a one-alternative union of an
    /// object with a discriminator. The one alternative is that object, so the two have distinct
    /// JSON types: README's rule for an enum, which fell back to JSONValue.
    @Test func aOneAlternativeUnionIsItsAlternative() throws {
        let schemas = try Self.schemas("""
            {Agent: {type: object, required: [type, id], properties: {type: {type: string, const: agent}, id: {type: string}}},
             AgentRef: {oneOf: [{type: string}, {oneOf: [{$ref: "#/components/schemas/Agent"}], discriminator: {propertyName: type, mapping: {agent: "#/components/schemas/Agent"}}}]}}
            """)
        #expect(schemas.contains("nonisolated enum AgentRef: Codable, Sendable {"), "\(schemas)")
        #expect(schemas.contains("    case string(String)"))
        #expect(schemas.contains("    case object(Agent)"))
        #expect(!schemas.contains("JSONValue"))
    }

    /// Chroma's document mixes key styles, so its keys stay as written: a path placeholder keeps
    /// the document's name too, bound through the property's coding key, and the document
    /// EndpointKitContract exports has the source's paths (5 of Chroma's 35 operations came back
    /// under other paths, `{collectionId}` for `{collection_id}`).
    @Test func withKeysAsWrittenAPathPlaceholderKeepsTheDocumentsName() throws {
        let files = try Self.files("""
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /tenants/{tenant_name}:
                get:
                  operationId: getTenant
                  parameters: [{ name: tenant_name, in: path, required: true, schema: { type: string } }]
                  responses:
                    "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Tenant" } } } }
            components:
              schemas:
                Tenant: { type: object, required: [name, resourceName], properties: { name: { type: string }, resourceName: { type: string }, created_at: { type: string } } }
            """)
        let endpoints = try #require(files["Endpoints.swift"])
        #expect(endpoints.contains(#"    var endpoint: Restful { Restful(.get, "tenants/{tenant_name}") }"#), "\(endpoints)")
        #expect(endpoints.contains("    let tenantName: String"))
        #expect(endpoints.contains(#"        case tenantName = "tenant_name""#))
    }

    @Test func threeZeroNullableIsAnOptionalToo() throws {
        let text = try MappingTests.schemas("{ A: { type: object, required: [a], properties: { a: { type: integer, nullable: true } } } }", openapi: "3.0.3")
        #expect(text.contains("var a: Int?"))
    }

    @Test func aTagTheAlternativesFixIsTheDiscriminator() throws {
        let text = try MappingTests.schemas("""
            { Circle: { type: object, required: [shape, r], properties: { shape: { const: circle }, r: { type: number } } },
              Square: { type: object, required: [shape, side], properties: { shape: { type: string, enum: [square] }, side: { type: number } } },
              Shape: { oneOf: [ { $ref: '#/components/schemas/Circle' }, { $ref: '#/components/schemas/Square' } ] } }
            """)
        #expect(text.contains(#"case "circle": self = try .circle(Circle(from: decoder))"#))
        #expect(text.contains(#"case "square": self = try .square(Square(from: decoder))"#))
        #expect(text.contains(#"var shape: String = "circle""#))
    }

    @Test func aCamelCaseAPIKeepsItsKeysAsWritten() throws {
        let files = try MappingTests.files("""
            openapi: 3.1.0
            info: { title: Camel, version: "1" }
            paths: {}
            components:
              schemas: { User: { type: object, required: [userId], properties: { userId: { type: string }, "first-name": { type: string } } } }
            """)
        #expect(files["Schemas.swift"]?.contains("let userId: String") == true)
        #expect(files["Schemas.swift"]?.contains(#"case firstName = "first-name""#) == true)
        #expect(files["CamelServer.swift"]?.contains("keyEncodingStrategy = .useDefaultKeys") == true)
    }

    @Test func namesSwiftReservesAreEscapedAndTypesItUsesRenamed() throws {
        let text = try MappingTests.schemas("{ Error: { type: object, required: [default], properties: { default: { type: boolean }, class: { type: string } } } }")
        #expect(text.contains("struct ErrorModel: Codable, Sendable"))
        #expect(text.contains("let `default`: Bool"))
        #expect(text.contains("var `class`: String?"))
    }

    @Test func aTypeThatHoldsItselfIsAClass() throws {
        let text = try MappingTests.schemas("{ Node: { type: object, required: [name], properties: { name: { type: string }, parent: { $ref: '#/components/schemas/Node' }, children: { type: array, items: { $ref: '#/components/schemas/Node' } } } } }")
        #expect(text.contains("nonisolated final class Node: Codable, Sendable"))
        #expect(text.contains("init(name: String, parent: Node? = nil, children: [Node]? = nil)"))
    }

    @Test func openAndTypedMaps() throws {
        let text = try MappingTests.schemas("{ A: { type: object, required: [a, b, c], properties: { a: {}, b: { type: object }, c: { additionalProperties: { type: integer } } } } }")
        #expect(text.contains("let a: JSONValue"))
        #expect(text.contains("let b: [String: JSONValue]"))
        #expect(text.contains("let c: [String: Int]"))
    }

    @Test func objectsToldApartByAKeyOnlyEachHas() throws {
        let text = try MappingTests.schemas("""
            { Cron: { type: object, required: [cron], properties: { cron: { type: string }, timezone: { type: string } } },
              Interval: { type: object, required: [interval], properties: { interval: { type: number }, timezone: { type: string } } },
              Schedule: { anyOf: [ { $ref: '#/components/schemas/Cron' }, { $ref: '#/components/schemas/Interval' }, { type: string } ] } }
            """)
        #expect(text.contains("if object.contains(.cron) {"))
        #expect(text.contains("self = try .interval(container.decode(Interval.self))"))
        #expect(text.contains("if let value = try? container.decode(String.self) {"))
    }

    @Test func stringsOfSeveralFormatsAreAString() throws {
        let text = try MappingTests.schemas("{ A: { type: object, required: [id_or_name], properties: { id_or_name: { anyOf: [ { type: string, format: uuid }, { type: string } ] } } } }")
        #expect(text.contains("let idOrName: String"))
    }

    @Test func nestedTypesDoNotTakeNamesTheCodeUses() throws {
        let text = try MappingTests.schemas("{ A: { type: object, required: [type, data], properties: { type: { enum: [a, b] }, data: { type: object, properties: { x: { type: string } } } } } }")
        #expect(text.contains("let type: TypeValue"))
        #expect(text.contains("let data: DataValue"))
    }

    @Test func theSuccessStatusIsKeptForTheContract() throws {
        let yaml = """
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /ack: { post: { operationId: ack, responses: { '200': { description: done } } } }
              /items: { post: { operationId: addItem, responses: { '201': { description: made, content: { application/json: { schema: { type: object } } } } } } }
            """
        let output = try EndpointGenerator.generate(DocumentLoader.load(Data(yaml.utf8)), options: .init(documented: true))
        let documentation = try #require(output.files.first { $0.name == "Documentation.swift" }?.contents)
        #expect(documentation.contains("nonisolated extension Ack: Documented {\n    static var documentation: Documentation {\n        Documentation(status: 200)"))
        #expect(documentation.contains("Documentation(status: 201)"))
        #expect(documentation.contains("static let endpoints: [any (Endpoint & Decodable).Type] = [\n        Ack.self,\n        AddItem.self,\n    ]"))
    }
}
