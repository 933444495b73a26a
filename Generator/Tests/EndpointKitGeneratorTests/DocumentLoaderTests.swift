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
