import ArgumentParser
import EndpointKitGenerator
import Foundation

/// `endpointkit-generate openapi.yaml`: reads the document and reports what the loader repaired.
/// (Writing the endpoint structs is the next step of issue 29.)
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "endpointkit-generate", abstract: "Reads an OpenAPI 3.0 or 3.1 document for EndpointKit.")

    @Argument(help: "The OpenAPI document, YAML or JSON.")
    var document: String

    mutating func run() throws {
        do {
            let loaded = try DocumentLoader.load(try Data(contentsOf: URL(fileURLWithPath: document)))
            for repair in loaded.repairs { print("repaired \(repair)") }
            print("read OpenAPI \(loaded.sourceVersion): \(loaded.document.paths.count) paths")
        } catch let error as GenerationError {
            throw ValidationError(error.description)
        }
    }
}

Generate.main()
