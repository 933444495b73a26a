import EndpointKit
import Foundation

// Runs the README's endpoints against a real server: the embedded demo server on 127.0.0.1 by
// default, or the server at `--origin URL`; or against stubs, with no server at all.
//
//     swift run --package-path Examples Demo
//     swift run --package-path Examples Demo --origin http://127.0.0.1:8080
//     swift run --package-path Examples Demo --stubbed

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

        var github = Server.default!
        github.pathPrefix = ""  // the same origin and transport, unversioned
        let page = try await ListBranches(owner: "apple", repo: "swift", perPage: 5).callWithMetadata(on: github)
        let branches = page.payload
        print("ListBranches    GET  /repos/apple/swift/branches → \(page.statusCode), \(branches.count) branches, next page: \(page.value(forHeader: "Link") ?? "none")")
        for branch in branches {
            print("    \(branch.name) at \(branch.commit.sha.prefix(7))\(branch.protected ? " (protected)" : "")")
        }

        let photo = MultipartFile(Data(repeating: 0xFF, count: 2048), filename: "beach.jpg", contentType: "image/jpeg")
        let upload = try await UploadPhoto(albumId: 3, caption: "Beach", photo: photo, requestID: "demo-1").response
        print("UploadPhoto     POST /api/v1/albums/3/photos (multipart) → album \(upload.album), \(upload.receivedBytes) bytes received")
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

let arguments = CommandLine.arguments
if arguments.contains("--stubbed") {
    print("Stubbed: every call is answered by a StubTransport, with no server and no network\n")
    Server.default = StubbedServer.make()
    await printCalls()
} else if let flag = arguments.firstIndex(of: "--origin") {
    guard flag + 1 < arguments.count, let origin = URL(string: arguments[flag + 1]) else {
        print("usage: Demo [--origin URL | --stubbed]")
        exit(2)
    }
    Server.default = Server(origin: origin, middlewares: [RequestLogger { print("    log: \($0)") }])
    await printCalls()
} else {
    try await DemoServer.withServer { origin in
        print("Demo server listening on \(origin)\n")
        // Once, at start-up. The logger prints one line per request and per response.
        Server.default = Server(origin: origin, middlewares: [RequestLogger { print("    log: \($0)") }])
        await printCalls()
    }
}
