// The shelter server and the MCP server run as child processes, which exist on macOS and Linux only.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitGenerator
import Foundation
@testable import ShelterAPI
import Testing

/// `endpointkit-generate shelter.json --mcp-server shelter-mcp` writes an executable (the committed
/// ShelterMCP snapshot, built by this package) that serves every operation as an MCP tool. The
/// official MCP Python SDK launches it against the FastAPI shelter server, lists its tools, reads,
/// writes, and the write is then read back from the server through the generated API.
@Suite(.serialized) struct ShelterMCPTests {
    /// The MCP SDK's release, in a virtual environment of its own: FastAPI pins its own Starlette.
    static let packages = ["mcp==2.3.0"]
    static let environment = Snapshots.package.appendingPathComponent(".build/mcp-python")

    @Test func theDocumentGeneratesTheSnapshot() throws {
        let loaded = try DocumentLoader.load(Data(contentsOf: Snapshots.documents.appendingPathComponent("shelter.json")))
        let files = try EndpointGenerator.generate(loaded, options: .init(mcpServer: "shelter-mcp")).files
        #expect(files.map(\.name) == ["Animals.swift", "Documentation.swift", "Endpoints.swift", "ShelterServer.swift", "main.swift"])
        #expect(try Snapshots.differences(files, snapshot: "ShelterMCP") == [])
    }

    @Test func theOfficialClientListsReadsAndWrites() async throws {
        let shelter = try ShelterServer()
        let python = try Self.interpreter()
        let executable = try Self.executable()
        let process = Process()
        process.executableURL = python
        process.arguments = [Snapshots.package.appendingPathComponent("Tests/EndpointKitGeneratorTests/Servers/shelter_mcp_client.py").path,
                             executable.path, shelter.origin.absoluteString]
        // Files, not pipes read to their end: a server another test starts meanwhile could hold a
        // copy of a pipe for as long as it runs, and the read would not end when the client exits.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelter-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outputFile, errorsFile) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile), errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? output.close(); try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let printed = try Data(contentsOf: outputFile)
        let complaint = String(decoding: try Data(contentsOf: errorsFile), as: UTF8.self)
        try #require(process.terminationStatus == 0, "the client failed: \(complaint)")
        let seen = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])

        #expect(seen["server"] as? String == "shelter-mcp")
        let tools = try #require(seen["tools"] as? [String: [String: Any]])
        #expect(tools.keys.sorted() == ["create_animal", "delete_animal", "get_animal", "health", "list_animals"])
        #expect(tools["list_animals"]?["readOnly"] as? Bool == true)
        #expect(tools["create_animal"]?["destructive"] as? Bool == false)
        #expect(tools["delete_animal"]?["destructive"] as? Bool == true)
        #expect(tools["create_animal"]?["required"] as? [String] == ["name", "details"])
        #expect((tools["create_animal"]?["description"] as? String)?.hasPrefix("Admit an animal") == true)

        let list = try #require(seen["list"] as? [String: Any])
        #expect(list["isError"] as? Bool == false)
        let items = try #require((list["structured"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.map { $0["name"] as? String } == ["Tom", "Rex"])

        let create = try #require(seen["create"] as? [String: Any])
        #expect(create["isError"] as? Bool == false, "\(create)")
        let created = try #require(create["structured"] as? [String: Any])
        #expect(created["name"] as? String == "Mochi")
        let id = try #require((created["id"] as? String).flatMap(UUID.init(uuidString:)))

        let refused = try #require(seen["refused"] as? [String: Any])
        #expect(refused["isError"] as? Bool == true)
        #expect((refused["text"] as? String)?.contains("bird") == true, "\(refused)")

        // Protocol version 2026-07-28: the generated server asks the user before a write.
        let confirmed = try #require(seen["confirmed"] as? [String: Any], "\(seen)")
        #expect(confirmed["isError"] as? Bool == false, "\(confirmed)")
        let kiki = try #require((confirmed["structured"] as? [String: Any])?["id"] as? String)
        let declined = try #require(seen["declined"] as? [String: Any])
        #expect(declined["isError"] as? Bool == true)
        #expect((declined["text"] as? String)?.contains("The user declined POST /animals; nothing was sent.") == true, "\(declined)")
        #expect((seen["asked"] as? [String])?.count == 2)
        let strict = try #require(seen["strict"] as? [String: Any])
        #expect(strict["isError"] as? Bool == true)
        #expect((strict["text"] as? String)?.contains("needs the user's confirmation, and this client cannot ask for it") == true, "\(strict)")

        // The writes reached the server: read back through the generated API, then removed.
        let api = APIServer.shelter(origin: shelter.origin)
        var all: [String] = []
        for try await animal in ListAnimals(limit: 20).items(on: api) { all.append(animal.name) }
        #expect(all.contains("Kiki") && !all.contains("Never") && !all.contains("Strict"), "\(all)")
        if let kiki = UUID(uuidString: kiki) { _ = try await DeleteAnimal(animalId: kiki).call(on: api) }
        let animal = try await GetAnimal(animalId: id).call(on: api)
        #expect(animal.name == "Mochi")
        #expect(animal.tags == ["mcp"])
        guard case .cat(let cat) = animal.details else { Issue.record("not a cat: \(animal.details)"); return }
        #expect(cat.indoor == true)
        _ = try await DeleteAnimal(animalId: id).call(on: api)
    }

    /// The ShelterMCP executable this package built, beside the test bundle.
    static func executable() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // macOS runs the tests from inside an .xctest bundle: the products are beside the bundle.
        while folder.pathExtension == "xctest" || folder.lastPathComponent == "MacOS" || folder.lastPathComponent == "Contents" {
            folder.deleteLastPathComponent()
        }
        let executable = folder.appendingPathComponent("ShelterMCP")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ShelterServer.StartFailure(description: "no ShelterMCP executable in \(folder.path): build it with swift build --package-path Generator --product ShelterMCP")
        }
        return executable
    }

    private static let prepared = Result {
        try PythonEnvironment(folder: environment, packages: packages,
                              check: "import mcp, importlib.metadata as m; assert m.version('mcp') == '2.3.0'").interpreter()
    }
    static func interpreter() throws -> URL { try prepared.get() }
}
#endif
