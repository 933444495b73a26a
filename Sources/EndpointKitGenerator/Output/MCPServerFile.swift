#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Foundation

/// The `main.swift` of an executable that serves every generated endpoint as a Model Context
/// Protocol tool over standard input and output (`--mcp-server NAME`).
///
/// The API's origin is `--origin URL` (the document's first server when it has an absolute one),
/// and its credentials come from environment variables named after the server, never from the
/// command line, which other users of the machine can read.
enum MCPServerFile {
    /// The source of `main.swift` for the server `name`, calling `factory` (the generated `APIServer`
    /// factory) with the parameters `security` asks for, and offering `namespace.endpoints`.
    static func contents(name: String, title: String, version: String, description: String?, factory: String,
                         namespace: String, security: SecurityChoice, hasDefaultOrigin: Bool) -> String {
        let prefix = screaming(SwiftNames.upperCamel(name))
        let secrets = security.parameters.map { parameter in
            let label = String(parameter.prefix { $0 != ":" })
            return (label: label, variable: prefix + "_" + screaming(label))
        }
        let confirmVariable = prefix + "_CONFIRM"
        var writer = SwiftWriter()
        writer.line("import EndpointKit")
        writer.line("import EndpointKitMCP")
        writer.line("import EndpointKitTools")
        writer.line("import Foundation")
        writer.blank()
        writer.line("// \(title)'s operations as Model Context Protocol tools, over standard input and output:")
        writer.line("//")
        writer.line("//     \(name)\(hasDefaultOrigin ? " [--origin URL]" : " --origin URL")")
        writer.line("//")
        if !secrets.isEmpty {
            writer.line("//")
            writer.line("// Credentials come from the environment, never the command line: \(secrets.map(\.variable).joined(separator: ", ")).")
        }
        writer.line("// Standard output carries protocol messages only; errors go to standard error.")
        writer.line("// A call that is not read-only is confirmed by the user before it is sent, when the client can")
        writer.line("// ask (MCP 2026-07-28); a client that cannot is trusted to ask its user, as MCP clients do, unless")
        writer.line("// \(confirmVariable)=strict, which refuses such calls.")
        writer.line("// In an HTTP server of your own, the same tools answer Streamable HTTP, with authorization:")
        writer.line("// `MCPServer(..., authorization: MCPServer.Authorization(...)).handle(MCPServer.HTTPRequest(...))`")
        writer.line("// for each request to its path; without authorization it sends no write.")
        writer.blank()
        writer.line("nonisolated func fail(_ message: String) -> Never {")
        writer.line("    FileHandle.standardError.write(Data((message + \"\\n\").utf8))")
        writer.line("    exit(2)")
        writer.line("}")
        writer.blank()
        writer.line("let arguments = CommandLine.arguments")
        writer.line("let environment = ProcessInfo.processInfo.environment")
        writer.line("var given: URL?")
        writer.line("if let flag = arguments.firstIndex(of: \"--origin\") {")
        writer.line("    guard flag + 1 < arguments.count, let url = URL(string: arguments[flag + 1]), url.scheme == \"http\" || url.scheme == \"https\" else {")
        writer.line("        fail(\"usage: \(SwiftWriter.escapedText(name)) --origin URL (an http or https URL)\")")
        writer.line("    }")
        writer.line("    given = url")
        writer.line("}")
        if !hasDefaultOrigin {
            writer.line("guard let origin = given else { fail(\"usage: \(SwiftWriter.escapedText(name)) --origin URL: the API's origin, such as https://api.example.com\") }")
        }
        for secret in secrets {
            writer.line("guard let \(secret.label) = environment[\(SwiftWriter.literal(secret.variable))], !\(secret.label).isEmpty else { fail(\"set \(SwiftWriter.escapedText(secret.variable)): \(SwiftWriter.escapedText(name)) reads its credentials from the environment\") }")
        }
        let credentials = secrets.map { "\($0.label): \($0.label)" }
        writer.blank()
        if hasDefaultOrigin {
            // Without --origin, the factory's default: the document's first server.
            writer.line("let server: APIServer = if let origin = given { .\(factory)(\((["origin: origin"] + credentials).joined(separator: ", "))) } else { .\(factory)(\(credentials.joined(separator: ", "))) }")
        } else {
            writer.line("let server = APIServer.\(factory)(\((["origin: origin"] + credentials).joined(separator: ", ")))")
        }
        writer.line("let tools = EndpointTools(\(namespace).endpoints, on: server)")
        var serverArguments = ["name: \(SwiftWriter.literal(name))", "version: \(SwiftWriter.literal(version))", "tools: tools"]
        if let description, !description.isEmpty { serverArguments.append("instructions: \(SwiftWriter.literal(description))") }
        writer.line("let confirmation = MCPServer.Confirmation(whenClientCannotAsk: environment[\(SwiftWriter.literal(confirmVariable))] == \"strict\" ? .refuse : .send)")
        serverArguments.append("confirmation: confirmation")
        writer.line("try await MCPServer(\(serverArguments.joined(separator: ", "))).run()")
        return writer.text
    }

    /// `apiKey` → `API_KEY`: a parameter label as an environment variable's part.
    static func screaming(_ label: String) -> String {
        label.unicodeScalars.reduce(into: "") { text, scalar in
            if CharacterSet.uppercaseLetters.contains(scalar), !text.isEmpty { text += "_" }
            text += String(scalar)
        }
        .uppercased()
    }
}
#endif
