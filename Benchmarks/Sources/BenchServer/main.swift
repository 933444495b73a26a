import Contenders
import Foundation
import Hummingbird
import Logging

// The local server of the end-to-end benchmarks: canned answers for the two operations, on
// 127.0.0.1. Prints "READY <port>" once it listens; stops when its standard input closes.

var logger = Logger(label: "bench-server")
logger.logLevel = .critical
let router = Router()
let branches = ByteBuffer(bytes: Fixtures.branchesJSON)
let balance = ByteBuffer(bytes: Fixtures.balanceJSON)
router.get("/api/v1/repos/:owner/:repo/branches") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: branches))
}
router.post("/api/v2/purchase_cheer") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 64 * 1024)
    return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: balance))
}
let port = Int(CommandLine.arguments.dropFirst().first ?? "0") ?? 0
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("READY \(channel.localAddress?.port ?? 0)\n".utf8))
    },
    logger: logger
)
Thread.detachNewThread {
    while readLine() != nil {}
    exit(0)
}
try await app.run()
