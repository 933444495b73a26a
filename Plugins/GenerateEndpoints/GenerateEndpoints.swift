import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-endpoints openapi.yaml --output Sources/App/Generated`:
/// runs `endpointkit-generate` in the package's folder, with the arguments as given.
///
/// The options are the executable's own (`--documented`, `--access public`, `--mcp-server NAME`,
/// `--fall-back`; `swift package generate-endpoints --help` lists them). Relative paths are read
/// from the package's folder, where the plugin runs the tool. The generator needs EndpointKit's
/// `Generator` trait; without it the tool says so and fails.
@main
struct GenerateEndpoints: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "endpointkit-generate")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw GenerationFailed(status: process.terminationStatus)
        }
    }
}

/// The generator stopped with an error, which it has written to standard error.
struct GenerationFailed: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "endpointkit-generate failed (exit status \(status)); its message is above" }
}
