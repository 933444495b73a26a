import EndpointKitGenerator
import Foundation
import Testing

/// What has no faithful EndpointKit form is refused with the JSON path of the offending part, what
/// is wrong and what to change, never generated wrong.
@Suite struct RefusalTests {
    static func generate(paths: String = "{}", schemas: String = "{}") throws {
        let yaml = """
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths: \(paths)
            components:
              schemas: \(schemas)
            """
        _ = try EndpointGenerator.generate(DocumentLoader.load(Data(yaml.utf8)))
    }

    static func refusal(paths: String = "{}", schemas: String = "{}") -> GenerationError? {
        do {
            try generate(paths: paths, schemas: schemas)
            return nil
        } catch {
            return error as? GenerationError
        }
    }

    @Test(arguments: [
        ("{ A: { type: object, properties: { a: { not: { type: string } } } } }", "#/components/schemas/A/properties/a/not", "`not`"),
        ("{ A: { type: object, if: { required: [a] }, then: { required: [b] } } }", "#/components/schemas/A/if", "conditional"),
        ("{ A: { type: object, patternProperties: { '^x-': { type: string } } } }", "#/components/schemas/A/patternProperties", "patternProperties"),
        ("{ A: { type: object, properties: { a: { type: string } } }, B: { type: object, properties: { b: { type: string } } }, U: { oneOf: [ { $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' } ] } }",
         "#/components/schemas/U/oneOf", "cannot be told apart"),
        ("{ U: { anyOf: [ { type: array, items: { type: string } }, { type: array, items: { type: integer } } ] } }", "#/components/schemas/U/anyOf", "same JSON type"),
        ("{ A: { type: object, properties: { a: { $ref: '#/components/schemas/B/properties/b' } } }, B: { type: object, properties: { b: { type: string } } } }",
         "#/components/schemas/A/properties/a", "does not name a schema"),
    ])
    func schemasWithoutASwiftForm(schemas: String, path: String, problem: String) {
        let error = RefusalTests.refusal(schemas: schemas)
        #expect(error?.path == path)
        #expect(error?.problem.contains(problem) == true, "\(String(describing: error))")
        #expect(error?.fix.isEmpty == false)
    }

    @Test(arguments: [
        ("{ /a: { get: { parameters: [ { name: session, in: cookie, schema: { type: string } } ], responses: { '204': { description: ok } } } } }",
         "#/paths/~1a/get/parameters/0", "cookie parameter \"session\""),
        ("{ /a: { get: { parameters: [ { name: ids, in: query, style: pipeDelimited, schema: { type: array, items: { type: integer } } } ], responses: { '204': { description: ok } } } } }",
         "#/paths/~1a/get/parameters/0/style", "pipeDelimited"),
        ("{ /a: { get: { parameters: [ { name: filter, in: query, schema: { type: object, properties: { a: { type: string } } } } ], responses: { '204': { description: ok } } } } }",
         "#/paths/~1a/get/parameters/0/style", "form style for an object"),
        ("{ /a: { get: { parameters: [ { name: q, in: query, content: { application/json: { schema: { type: object } } } } ], responses: { '204': { description: ok } } } } }",
         "#/paths/~1a/get/parameters/0/content", "media type"),
        ("{ /a: { post: { requestBody: { content: { application/xml: { schema: { type: object } } } }, responses: { '204': { description: ok } } } } }",
         "#/paths/~1a/post/requestBody/content", "XML"),
        ("{ /a: { get: { requestBody: { content: { application/json: { schema: { type: object } } } }, responses: { '204': { description: ok } } } } }",
         "#/paths/~1a/get/requestBody/content/application~1json/schema", "GET with a request body"),
    ])
    func operationsEndpointKitCannotSend(paths: String, path: String, problem: String) {
        let error = RefusalTests.refusal(paths: paths)
        #expect(error?.path == path)
        #expect(error?.problem.contains(problem) == true, "\(String(describing: error))")
    }

    @Test func fallingBackKeepsEveryValueAndReportsEachRefusal() throws {
        let yaml = """
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /a:
                get:
                  parameters: [ { name: session, in: cookie, schema: { type: string } } ]
                  responses: { '204': { description: ok } }
              /b:
                get:
                  responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/A' } } } } }
            components:
              schemas:
                A: { type: object, required: [a], properties: { a: { not: { type: string } } } }
            """
        let output = try EndpointGenerator.generate(DocumentLoader.load(Data(yaml.utf8)), options: .init(fallsBack: true))
        #expect(output.fallbacks.map(\.path) == ["#/components/schemas/A/properties/a/not", "#/paths/~1a/get/parameters/0"])
        #expect(output.fallbacks.last?.problem.hasSuffix("GET /a is left out") == true)
        let files = Dictionary(uniqueKeysWithValues: output.files.map { ($0.name, $0.contents) })
        #expect(files["Endpoints.swift"]?.contains("let a: JSONValue") == true)  // beside GetB, which uses it
        #expect(files["Endpoints.swift"]?.contains("struct GetB") == true)
        #expect(files["Endpoints.swift"]?.contains("struct GetA") == false)
    }
}
