import DemoServer
import EndpointKit
import EndpointKitContract
import EndpointKitMCP
import EndpointKitTools
import Foundation

// Runs the documentation's endpoints against a real server: the embedded demo server on 127.0.0.1 by
// default, or the server at `--origin URL`; or against stubs, with no server at all.
//
//     swift run --package-path Examples Demo
//     swift run --package-path Examples Demo --origin http://127.0.0.1:8080
//     swift run --package-path Examples Demo --stubbed
//     swift run --package-path Examples Demo --openapi [ORIGIN]   (prints the OpenAPI document)

func printCalls() async {
    do {
        let balance = try await PurchaseCheer(identifier: "cheer.large", transactionId: 1_000_000_007).response.balance
        print("PurchaseCheer   POST /api/v2/purchase_cheer  → balance \(balance)")

        let history = try await CheerHistory(userId: 42).response.history
        print("CheerHistory    GET  /api/v1/cheer_history   → \(history.count) cheers")
        for cheer in history {
            let comments = (cheer.comments ?? []).map { "\($0.body ?? "") — \($0.signature ?? "anonymous")" }
            print("    \(cheer.amount) × \(cheer.product) by \(cheer.creator) at \(cheer.date)"
                + (comments.isEmpty ? "" : "; comments: \(comments.joined(separator: ", "))"))
        }

        let page = try await ListBranches(owner: "apple", repo: "swift", perPage: 5).callWithMetadata()  // its own prefix: none
        let branches = page.payload
        print("ListBranches    GET  /repos/apple/swift/branches → \(page.statusCode), \(branches.count) branches, next page: \(page.value(forHeader: "Link") ?? "none")")
        for branch in branches {
            print("    \(branch.name) at \(branch.commit.sha.prefix(7))\(branch.protected ? " (protected)" : "")")
        }

        let photo = MultipartFile(Data(repeating: 0xFF, count: 2048), filename: "beach.jpg", contentType: "image/jpeg")
        let upload = try await UploadPhoto(albumId: 3, caption: "Beach", photo: photo, requestID: "demo-1").response
        print("UploadPhoto     POST /api/v1/albums/3/photos (multipart) → album \(upload.album), \(upload.receivedBytes) bytes received")

        // A streamed answer: each word is printed as soon as the server sends it.
        let conversation = [ChatMessage(role: "user", content: "How does EndpointKit stream?")]
        let answer = try await ChatCompletion(model: "demo", messages: conversation).response  // returns at the head
        print("ChatCompletion  POST /api/v1/chat/completions (Server-Sent Events) → ", terminator: "")
        for try await event in answer {
            print(event.data.choices.first?.delta.content ?? "", terminator: "")
            fflush(nil)  // nil: every stream (naming stdout is not concurrency-safe)
        }
        print()

        // A download to disk, with a progress bar.
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("report-7.bin")
        let bar = ProgressBar()
        let file = try await ExportReport(id: 7).download(to: destination) { progress in bar.show(progress) }.payload
        bar.finish()
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print("ExportReport    GET  /api/v1/reports/7/export → \(size) bytes in \(file.lastPathComponent)")
        try? FileManager.default.removeItem(at: file)
    } catch {
        print("Call failed: \(error)")
        exit(1)
    }

    // Errors say what went wrong and where:
    do {
        _ = try await PurchaseCheer(identifier: "", transactionId: 1).response
    } catch {
        print("PurchaseCheer with an empty identifier throws:\n    \(error)")
    }
}

/// A one-line progress bar on the terminal, redrawn every 5 %.
final class ProgressBar: @unchecked Sendable {
    // `lock` guards `shown`; progress arrives on any thread.
    private let lock = NSLock()
    private var shown = -1

    func show(_ progress: TransferProgress) {
        let percent = Int((progress.fractionCompleted ?? 0) * 20) * 5
        lock.lock()
        defer { lock.unlock() }
        guard percent != shown else { return }
        shown = percent
        let filled = percent / 5
        print("\rExportReport    [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
            + "] \(percent) %", terminator: "")
        fflush(nil)  // nil: every stream (naming stdout is not concurrency-safe)
    }

    func finish() {
        print()
    }
}

let arguments = CommandLine.arguments
if let flag = arguments.firstIndex(of: "--openapi") {
    // The OpenAPI 3.1 document of the demo's endpoints, derived from their structs.
    let origin = flag + 1 < arguments.count ? URL(string: arguments[flag + 1]) : nil
    let server = APIServer(origin: origin ?? URL(string: "http://127.0.0.1:8080")!, transport: demoTransport, errorPayloadType: DemoError.self)
    let document = try OpenAPIDocument(
        title: "EndpointKit demo", version: "1.0", description: "The endpoints of EndpointKit's README, served by Demo's embedded server.",
        servers: [server], endpoints: demoEndpoints)
    print(String(decoding: document.yaml(), as: UTF8.self), terminator: "")
} else if arguments.contains("--mcp") {
    // The demo's endpoints as an MCP server over stdio (standard output carries protocol messages
    // only), calling the embedded demo API.
    try await DemoServer.withServer { origin in
        try await MCPServer(name: "endpointkit-demo", version: "1.0", tools: demoTools(on: origin)).run()
    }
} else if arguments.contains("--mcp-http") {
    // The same over Streamable HTTP, at /mcp of the demo's own Hummingbird server, until standard
    // input closes.
    // With authorization (the tokens of `demoPrincipals`), unless --open: then anyone may call, and
    // writes are refused, as an unauthenticated HTTP server must.
    let slot = MCPSlot()
    let open = arguments.contains("--open")
    try await DemoServer.withServer(mcp: { await slot.handle($0) }, mcpMetadata: { await slot.metadata() }) { origin in
        // --authorization-server URL: tokens issued by that server, checked by its introspection endpoint.
        let issuer = arguments.firstIndex(of: "--authorization-server").flatMap { $0 + 1 < arguments.count ? URL(string: arguments[$0 + 1]) : nil }
        let authorization = open ? nil : issuer.map { introspectingAuthorization(on: origin, issuer: $0) } ?? demoAuthorization(on: origin)
        await slot.set(MCPServer(name: "endpointkit-demo", version: "1.0", tools: demoTools(on: origin), authorization: authorization),
                       authorization: authorization)
        FileHandle.standardOutput.write(Data("MCP endpoint: \(origin.appendingPathComponent("mcp"))\n".utf8))  // unbuffered
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { _ = FileHandle.standardInput.readDataToEndOfFile(); done.resume() }.start()
        }
    }
} else if arguments.contains("--serve") {
    // Only the demo API, until standard input closes: for a program of your own (README's quick
    // start, say, which `.ci/adopt` runs against it). The origin is the first line printed.
    try await DemoServer.withServer { origin in
        FileHandle.standardOutput.write(Data("\(origin)\n".utf8))  // unbuffered
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { _ = FileHandle.standardInput.readDataToEndOfFile(); done.resume() }.start()
        }
    }
} else if arguments.contains("--stubbed") {
    print("Stubbed: every call is answered by a StubTransport, with no server and no network\n")
    APIServer.default = StubbedServer.make()
    await printCalls()
} else if let flag = arguments.firstIndex(of: "--origin") {
    guard flag + 1 < arguments.count, let origin = URL(string: arguments[flag + 1]) else {
        print("usage: Demo [--origin URL | --stubbed | --serve | --openapi [ORIGIN] | --mcp | --mcp-http [--open | --authorization-server URL]]")
        exit(2)
    }
    APIServer.default = APIServer(origin: origin, transport: demoTransport, middlewares: [RequestLogger { print("    log: \($0)") }])
    await printCalls()
} else {
    try await DemoServer.withServer { origin in
        print("Demo server listening on \(origin)\n")
        // Once, at start-up. The logger prints one line per request and per response.
        APIServer.default = APIServer(origin: origin, transport: demoTransport, middlewares: [RequestLogger { print("    log: \($0)") }])
        await printCalls()
        print()
        do {
            APIServer.default = APIServer(origin: origin, transport: demoTransport)  // the agent's calls without the logger's lines
            try await runAgent()
        } catch {
            print("Agent failed: \(error)")
            exit(1)
        }
    }
}
