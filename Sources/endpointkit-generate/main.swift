#if Generator
import ArgumentParser
import EndpointKitGenerator
import Foundation

/// `endpointkit-generate openapi.yaml --output Sources/PetAPI`: EndpointKit endpoint structs for an
/// OpenAPI 3.0 or 3.1 document, one file per tag.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "endpointkit-generate",
        abstract: "Writes EndpointKit endpoint structs for an OpenAPI 3.0 or 3.1 document (YAML or JSON).",
        discussion: """
            Repairs to the document are reported on standard error. Files this tool wrote before and \
            no longer writes (a tag renamed, say) are deleted from the output folder; other files are left alone.
            """)

    @Argument(help: "The OpenAPI document, YAML or JSON.")
    var document: String

    @Option(name: .shortAndLong, help: "The folder to write the Swift files into (created when missing).")
    var output: String

    @Flag(help: "Also write Documentation.swift: Documented conformances for EndpointKitContract, so the exported document keeps the source's summaries and statuses.")
    var documented = false

    @Option(help: "internal (default: the code goes into the app's own target) or public (a library module that an app imports; structs get public initializers).")
    var access: String = "internal"

    @Option(name: .customLong("mcp-server"), help: "Also write main.swift: the output folder becomes an executable named this, serving every endpoint as an MCP tool over stdio (implies --documented; needs the EndpointKitMCP product).")
    var mcpServer: String?

    @Flag(help: "Go on past what has no faithful EndpointKit form: such a schema becomes JSONValue and such an operation is left out, each reported on standard error with its JSON path and fix.")
    var fallBack = false

    mutating func run() throws {
        guard let accessLevel = EndpointGenerator.Options.AccessLevel(rawValue: access) else {
            throw ValidationError("--access is internal or public, not \(access)")
        }
        let files: [EndpointGenerator.File]
        do {
            let loaded = try DocumentLoader.load(try Data(contentsOf: URL(fileURLWithPath: document)))
            for repair in loaded.repairs { FileHandle.standardError.write(Data("repaired \(repair)\n".utf8)) }
            let output = try EndpointGenerator.generate(loaded, options: .init(documented: documented, fallsBack: fallBack, mcpServer: mcpServer, accessLevel: accessLevel))
            for fallback in output.fallbacks { FileHandle.standardError.write(Data("fell back: \(fallback)\n".utf8)) }
            files = output.files
        } catch let error as GenerationError {
            throw ValidationError(error.description)
        }
        let folder = URL(fileURLWithPath: output, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = Set(files.map(\.name))
        for stale in try FileManager.default.contentsOfDirectory(atPath: folder.path) where stale.hasSuffix(".swift") && !names.contains(stale) {
            let url = folder.appendingPathComponent(stale)
            if let text = try? String(contentsOf: url, encoding: .utf8), text.hasPrefix(EndpointGenerator.marker) {
                try FileManager.default.removeItem(at: url)
            }
        }
        for file in files {
            try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name), options: .atomic)
        }
        print("wrote \(files.count) files to \(output): \(files.map(\.name).joined(separator: ", "))")
        if let mcpServer {
            let target = folder.lastPathComponent
            print("""
                declare the MCP server in Package.swift (its folder, \(output), is the target's):
                    .executableTarget(name: "\(target)", dependencies: [
                        .product(name: "EndpointKit", package: "EndpointKit"),
                        .product(name: "EndpointKitContract", package: "EndpointKit"),
                        .product(name: "EndpointKitTools", package: "EndpointKit"),
                        .product(name: "EndpointKitMCP", package: "EndpointKit"),
                    ]),
                    products: [.executable(name: "\(mcpServer)", targets: ["\(target)"])]
                """)
        }
    }
}

Generate.main()
#else
import Foundation

// Built without the package trait that brings OpenAPIKit, Yams and ArgumentParser: say how to turn it on.
FileHandle.standardError.write(Data("""
    endpointkit-generate needs EndpointKit's "Generator" trait. In your Package.swift:
        .package(url: "…/EndpointKit", branch: "main", traits: ["Generator"])
    or, in a clone of EndpointKit: swift run --traits Generator endpointkit-generate …

    """.utf8))
exit(2)
#endif
