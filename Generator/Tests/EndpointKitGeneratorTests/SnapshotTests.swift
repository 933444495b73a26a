import EndpointKitGenerator
import Foundation
import Testing

/// The generated code for each document is what is committed under `Snapshots/`, byte for byte,
/// and the same on every run. The snapshot targets compile it; these tests keep it current.
@Suite struct SnapshotTests {
    @Test(arguments: [("petstore.yaml", "Petstore", false), ("shelter.json", "Shelter", false)])
    func generatedCodeIsTheSnapshot(document: String, snapshot: String, documented: Bool) throws {
        let loaded = try DocumentLoader.load(Data(contentsOf: Snapshots.documents.appendingPathComponent(document)))
        let files = try EndpointGenerator.generate(loaded, options: .init(documented: documented)).files
        #expect(try Snapshots.differences(files, snapshot: snapshot) == [])
        #expect(try EndpointGenerator.generate(loaded, options: .init(documented: documented)).files == files)  // deterministic
    }

    /// `--access public`: the PetstorePublic target, which PublicAccessTests imports as an app
    /// imports a library module (no `@testable`).
    @Test func thePetstoreAsALibraryModule() throws {
        let loaded = try DocumentLoader.load(Data(contentsOf: Snapshots.documents.appendingPathComponent("petstore.yaml")))
        let files = try EndpointGenerator.generate(loaded, options: .init(documented: true, accessLevel: .public)).files
        #expect(try Snapshots.differences(files, snapshot: "PetstorePublic") == [])
    }

    @Test func theDemoDocumentWithItsDocumentation() throws {
        let url = Snapshots.package.deletingLastPathComponent().appendingPathComponent("Examples/OpenAPI/openapi.yaml")
        let files = try EndpointGenerator.generate(DocumentLoader.load(Data(contentsOf: url)), options: .init(documented: true)).files
        #expect(try Snapshots.differences(files, snapshot: "Demo") == [])
    }
}
