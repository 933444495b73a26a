import EndpointKitGenerator
import Foundation
import Testing

/// What `--mcp-server` writes for documents unlike the shelter's: credentials, a default origin,
/// unions whose example needs a tag from the discriminator's mapping.
@Suite struct MCPServerFileTests {
    static func files(_ yaml: String, name: String = "zoo-mcp") throws -> [String: String] {
        let files = try EndpointGenerator.generate(DocumentLoader.load(Data(yaml.utf8)), options: .init(mcpServer: name)).files
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
    }

    @Test func credentialsComeFromTheEnvironmentAndTheOriginDefaultsToTheDocumentsServer() throws {
        let main = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: Zoo, version: "2.1", description: Animals of the zoo. }
            servers: [ { url: "https://zoo.example/v2" } ]
            components: { securitySchemes: { key: { type: http, scheme: bearer } } }
            security: [ { key: [] } ]
            paths:
              /animals: { get: { operationId: listAnimals, responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } } } } }
            """)["main.swift"])
        #expect(main.contains("// Credentials come from the environment, never the command line: ZOO_MCP_TOKEN."))
        #expect(main.contains(#"guard let token = environment["ZOO_MCP_TOKEN"], !token.isEmpty else { fail("set ZOO_MCP_TOKEN: zoo-mcp reads its credentials from the environment") }"#))
        #expect(main.contains("let server: APIServer = if let origin = given { .zoo(origin: origin, token: token) } else { .zoo(token: token) }"))
        #expect(main.contains("let tools = EndpointTools(ZooAPI.endpoints, on: server)"))
        #expect(main.contains(#"let confirmation = MCPServer.Confirmation(whenClientCannotAsk: environment["ZOO_MCP_CONFIRM"] == "strict" ? .refuse : .send)"#))
        #expect(main.contains(#"try await MCPServer(name: "zoo-mcp", version: "2.1", tools: tools, instructions: "Animals of the zoo.", confirmation: confirmation).run()"#))
        #expect(!main.contains("--origin URL:"))  // not required: the document names the server
    }

    @Test func aUnionsExampleCarriesTheMappedTagAndEveryRequiredProperty() throws {
        let documentation = try #require(try Self.files("""
            openapi: 3.1.0
            info: { title: Zoo, version: "1" }
            paths:
              /feed:
                post:
                  operationId: feed
                  requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Meal" } } } }
                  responses: { "204": { description: fed } }
            components:
              schemas:
                Meal:
                  oneOf: [ { $ref: "#/components/schemas/Meat" }, { $ref: "#/components/schemas/Hay" } ]
                  discriminator: { propertyName: kind, mapping: { meat: "#/components/schemas/Meat", hay: "#/components/schemas/Hay" } }
                Meat: { type: object, required: [kind, grams, at, cut], properties: { kind: { type: string }, grams: { type: integer }, at: { type: string, format: date-time }, cut: { type: string, enum: [rib, loin] }, note: { type: string } } }
                Hay: { type: object, required: [kind], properties: { kind: { type: string } } }
            """)["Documentation.swift"])
        #expect(documentation.contains(#"static var schemaExample: Self { decodedExample("{\"grams\":0,\"at\":\"1970-01-01T00:00:00Z\",\"cut\":\"rib\",\"kind\":\"meat\"}") }"#), "\(documentation)")
        #expect(documentation.contains(#".type(Meat.self).tagged("kind", as: "meat"),"#))
        #expect(documentation.contains(#".type(Hay.self).tagged("kind", as: "hay"),"#))
    }
}
