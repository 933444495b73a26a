// Checks `Demo --mcp` (stdio) and `Demo --mcp-http` (Streamable HTTP) with the official MCP Swift
// SDK, a client written independently of EndpointKit and of the Python SDK:
//
//     mcp-swift-check PATH/TO/Demo
//
// Exits 1 with the reason when anything differs from what README promises.
import Foundation
import MCP
import SystemPackage
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    guard !condition else { return }
    print("MCP Swift SDK check failed: \(what())")
    exit(1)
}

/// The text of a result's first content item.
func text(_ content: [Tool.Content]) -> String {
    guard case .text(let text, _, _)? = content.first else { return "" }
    return text
}

func exercise(_ client: Client, over transport: String) async throws {
    let listed = try await client.listTools()
    let tools = Dictionary(uniqueKeysWithValues: listed.tools.map { ($0.name, $0) })
    check(listed.tools.map(\.name) == ["purchase_cheer", "cheer_history", "list_branches"], "\(transport): tools \(listed.tools.map(\.name))")
    check(tools["cheer_history"]?.annotations.readOnlyHint == true, "\(transport): cheer_history is not read-only: \(String(describing: tools["cheer_history"]?.annotations))")
    check(tools["purchase_cheer"]?.annotations.destructiveHint == false, "\(transport): a POST is destructive: \(String(describing: tools["purchase_cheer"]?.annotations))")
    check(tools["list_branches"]?.outputSchema?.objectValue?["properties"]?.objectValue?["result"] != nil,
          "\(transport): list_branches has no wrapped output schema: \(String(describing: tools["list_branches"]?.outputSchema))")

    let history = try await client.send(CallTool.request(.init(name: "cheer_history", arguments: ["user_id": 42]))).value
    check(history.isError != true, "\(transport): cheer_history failed: \(history.content)")
    let first = history.structuredContent?.objectValue?["history"]?.arrayValue?.first?.objectValue
    check(first?["creator"]?.stringValue == "user42", "\(transport): cheer_history \(String(describing: history.structuredContent))")

    let bought = try await client.send(CallTool.request(.init(name: "purchase_cheer", arguments: ["identifier": "cheer.large", "transaction_id": 7]))).value
    check(bought.structuredContent == .object(["balance": 200]), "\(transport): purchase \(String(describing: bought.structuredContent))")

    // A list payload: an object with the list under "result", as the output schema says.
    let branches = try await client.send(CallTool.request(.init(name: "list_branches", arguments: ["owner": "apple", "repo": "swift", "per_page": 2]))).value
    let names = branches.structuredContent?.objectValue?["result"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }
    check(branches.isError != true && names == ["main", "release/6.0"], "\(transport): list_branches \(String(describing: branches.structuredContent))")

    let refused = try await client.callTool(name: "purchase_cheer", arguments: ["identifier": "cheer.large"])
    check(refused.isError == true && text(refused.content).contains("transaction_id"), "\(transport): missing argument \(refused.content)")
    let rejected = try await client.callTool(name: "purchase_cheer", arguments: ["identifier": "", "transaction_id": 7])
    check(rejected.isError == true && text(rejected.content).contains("422"), "\(transport): the server's 422 \(rejected.content)")

    // An unknown tool is a JSON-RPC error, which the SDK throws.
    do {
        _ = try await client.callTool(name: "no_such_tool", arguments: [:])
        check(false, "\(transport): an unknown tool was answered")
    } catch let error as MCPError {
        check("\(error)".contains("no_such_tool"), "\(transport): unknown tool error \(error)")
    }
    try await client.ping()
    print("\(transport): the official Swift SDK listed 3 tools, read, bought, got a list under \"result\", 2 error results, an unknown-tool error")
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: mcp-swift-check PATH/TO/Demo")
    exit(2)
}
let demo = URL(fileURLWithPath: arguments[1])

// stdio: the SDK's StdioTransport on the pipes of a Demo --mcp child.
do {
    let process = Process()
    process.executableURL = demo
    process.arguments = ["--mcp"]
    let toServer = Pipe(), fromServer = Pipe()
    process.standardInput = toServer
    process.standardOutput = fromServer
    try process.run()
    let transport = StdioTransport(
        input: FileDescriptor(rawValue: fromServer.fileHandleForReading.fileDescriptor),
        output: FileDescriptor(rawValue: toServer.fileHandleForWriting.fileDescriptor))
    let client = Client(name: "mcp-swift-check", version: "1.0")
    let initialized = try await client.connect(transport: transport)
    check(initialized.serverInfo.name == "endpointkit-demo", "stdio: server \(initialized.serverInfo)")
    check(initialized.protocolVersion == Version.latest, "stdio: protocol \(initialized.protocolVersion), the SDK asked for \(Version.latest)")
    try await exercise(client, over: "stdio")
    await client.disconnect()
    try toServer.fileHandleForWriting.close()
    process.waitUntilExit()
    check(process.terminationStatus == 0, "stdio: Demo --mcp exited with \(process.terminationStatus)")
}

// Streamable HTTP: the SDK's HTTPClientTransport against /mcp of Demo --mcp-http.
do {
    let process = Process()
    process.executableURL = demo
    process.arguments = ["--mcp-http"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line = Data()
    while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") { line.append(first) }
    let printed = String(decoding: line, as: UTF8.self)
    check(printed.hasPrefix("MCP endpoint: "), "--mcp-http printed \(printed)")
    let endpoint = URL(string: String(printed.dropFirst("MCP endpoint: ".count)))!
    // With streaming, the SDK also opens a GET event stream, which this server answers with 405
    // (the transport allows it): the calls must still go through.
    for streaming in [false, true] {
        let client = Client(name: "mcp-swift-check", version: "1.0")
        // /mcp asks for a bearer token: the demo's buyer, who may purchase.
        let transport = HTTPClientTransport(endpoint: endpoint, streaming: streaming, requestModifier: { request in
            var request = request
            request.setValue("Bearer demo-buyer", forHTTPHeaderField: "Authorization")
            return request
        })
        let initialized = try await client.connect(transport: transport)
        check(initialized.serverInfo.name == "endpointkit-demo", "HTTP: server \(initialized.serverInfo)")
        try await exercise(client, over: "Streamable HTTP\(streaming ? " (with a GET stream asked for)" : "")")
        await client.disconnect()
    }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
}
print("MCP Swift SDK: stdio and Streamable HTTP answered as the official client expects")
