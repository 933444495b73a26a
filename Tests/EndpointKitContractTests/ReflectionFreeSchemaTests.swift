import EndpointKit
import EndpointKitContract
import EndpointKitTools
import Foundation
import ReflectionFreeFixtures
import Testing

/// Schemas derived from types built without case names (Xcode's Reflection Metadata Level
/// "None"): each path fails as a request does, naming the type and the build setting. Before, a
/// Release build exported `schema_version` where the code says `"schemaVersion"`, and a model
/// sent arguments the endpoint could not read.
@Suite struct ReflectionFreeSchemaTests {
    func expectNamesTheSetting(_ error: EndpointError, type: String) {
        #expect(error.kind == .schemaUnavailable)
        #expect(error.reason.contains("the case names of ReflectionFreeFixtures.\(type).CodingKeys are not in the app's binary"))
        #expect(error.reason.contains("Reflection Metadata Level"))
    }

    @Test func `a JSON Schema of an answer fails`() throws {
        let error = try #require(throws: EndpointError.self) { try JSONSchema(for: ManifestAnswer.self) }
        expectNamesTheSetting(error, type: "ManifestAnswer")
    }

    @Test func `an OpenAPI document fails on the body and on the answer`() throws {
        let api = APIServer(origin: URL(string: "https://registry.test")!)
        for endpoint in [PutManifestVersion.self, GetManifest.self] as [any (Endpoint & Decodable).Type] {
            let error = try #require(throws: EndpointError.self) {
                try OpenAPIDocument(title: "Registry", version: "1", servers: [api], endpoints: [endpoint])
            }
            expectNamesTheSetting(error, type: endpoint == GetManifest.self ? "ManifestAnswer" : "PutManifestVersion")
        }
    }

    @Test func `a tool's arguments, its output schema and a structured output fail`() throws {
        let api = APIServer(origin: URL(string: "https://registry.test")!)
        let arguments = try #require(throws: EndpointError.self) { try EndpointTools([PutManifestVersion.self], on: api).definitions(for: .mcp) }
        expectNamesTheSetting(arguments, type: "PutManifestVersion")
        let output = try #require(throws: EndpointError.self) { try EndpointTools([GetManifest.self], on: api).definitions(for: .mcp) }
        expectNamesTheSetting(output, type: "ManifestAnswer")
        let structured = try #require(throws: EndpointError.self) { try StructuredOutput(ManifestAnswer.self) }
        expectNamesTheSetting(structured, type: "ManifestAnswer")
    }
}
