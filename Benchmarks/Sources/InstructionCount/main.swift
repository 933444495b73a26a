import Contenders
import Dispatch
import EndpointKit
import EndpointKitMCP
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Runs one contender's in-memory call N times, for counting instructions under valgrind's callgrind
// (run.sh runs it twice, with two values of N, and divides the difference by the extra calls).
//
//     InstructionCount <EndpointKit|snake|snake-all|explicit|explicit-all|openapi> <GET|POST> <calls>
//     BENCH_ORIGIN=http://127.0.0.1:PORT InstructionCount <raw|EndpointKit|openapi>-loopback <GET|POST> <calls>
//
// It starts a Task and waits on a semaphore instead of using top-level `await`: valgrind 3.19
// crashes on executables whose `main` awaits.

let arguments = CommandLine.arguments
guard arguments.count == 4, let calls = Int(arguments[3]) else {
    print("usage: InstructionCount <EndpointKit|MCP|MCP-guarded|snake|snake-all|explicit|explicit-all|openapi>[-loopback] <GET|POST> <calls>")
    exit(2)
}
let contender = arguments[1]
let isGET = arguments[2] == "GET"
let origin = Fixtures.origin.absoluteString
let remote = ProcessInfo.processInfo.environment["BENCH_ORIGIN"] ?? "http://127.0.0.1:8080"
let rawSender = SessionSender(session: URLSession(configuration: .ephemeral))
let remoteServer = APIServer(origin: URL(string: remote)!)
let remoteOpenAPI = OpenAPIContender.client(origin: URL(string: remote)!)
let done = DispatchSemaphore(value: 0)

// The same two operations as MCP tools, answered by the in-memory transport: `MCP` less
// `EndpointKit` is what a `tools/call` adds, JSON-RPC in and out.
struct BenchPurchase: Endpoint, Codable {
    var endpoint: Restful { Restful(.post, "purchase_cheer", version: 2) }
    let identifier: String
    let transactionId: UInt64
    struct ReturnPayloadType: Codable, Sendable { let balance: Int }
}
struct BenchBranches: Endpoint, Codable {
    var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
    let owner: String
    let repo: String
    let perPage: Int?
    typealias ReturnPayloadType = [EndpointKitClient.Branch]
}
let mcp = MCPServer(name: "bench", version: "1", tools: EndpointTools([BenchPurchase.self, BenchBranches.self], on: EndpointKitClient.inMemory))
// The same server with authorization (a scope each write needs) and confirmation, called by a
// caller whose token has that scope, in a revision that cannot ask the user: the call needs
// neither, so `MCP-guarded` less `MCP` is what they add to it.
let guarded = MCPServer(
    name: "bench", version: "1", tools: EndpointTools([BenchPurchase.self, BenchBranches.self], on: EndpointKitClient.inMemory),
    authorization: MCPServer.Authorization(
        resource: URL(string: "https://mcp.bench.example")!, authorizationServers: [URL(string: "https://auth.bench.example")!],
        requiredScopes: ["bench_purchase": ["cheers:write"]], verify: { _ in nil }),
    confirmation: MCPServer.Confirmation(whenClientCannotAsk: .send))
let principal = MCPServer.Principal(id: "bench", scopes: ["cheers:write"])
let mcpPurchase = Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bench_purchase","arguments":{"identifier":"cheer.large","transaction_id":2000000000001}}}"#.utf8)
let mcpBranches = Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bench_branches","arguments":{"owner":"apple","repo":"swift","per_page":30}}}"#.utf8)

Task.detached {
    do {
        for _ in 0..<calls {
            switch (contender, isGET) {
            case ("MCP", true):
                let reply = await mcp.handle(mcpBranches)
                if reply?.count ?? 0 < 9_000 { print(String(decoding: reply ?? Data(), as: UTF8.self)); exit(1) }
            case ("MCP", false): let reply = await mcp.handle(mcpPurchase); precondition(reply?.count ?? 0 > 100)
            case ("MCP-guarded", true):
                let reply = await guarded.handle(mcpBranches, from: principal)
                if reply?.count ?? 0 < 9_000 { print(String(decoding: reply ?? Data(), as: UTF8.self)); exit(1) }
            case ("MCP-guarded", false):
                let reply = await guarded.handle(mcpPurchase, from: principal)
                if reply.map({ String(decoding: $0, as: UTF8.self).contains(#""balance":200"#) }) != true { print(String(decoding: reply ?? Data(), as: UTF8.self)); exit(1) }
            case ("EndpointKit", true): _ = try await EndpointKitClient.listBranches(on: EndpointKitClient.inMemory)
            case ("EndpointKit", false): _ = try await EndpointKitClient.purchaseCheer(on: EndpointKitClient.inMemory)
            case ("snake", true): _ = try await HandWrittenClient.listBranches(origin: origin, sender: CannedSender())
            case ("snake", false): _ = try await HandWrittenClient.purchaseCheer(origin: origin, sender: CannedSender())
            case ("snake-all", true): _ = try await HandWrittenClient.listBranches(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("snake-all", false): _ = try await HandWrittenClient.purchaseCheer(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("explicit-all", true): _ = try await ExplicitKeysClient.listBranches(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("explicit-all", false): _ = try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("explicit", true): _ = try await ExplicitKeysClient.listBranches(origin: origin, sender: CannedSender())
            case ("explicit", false): _ = try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: CannedSender())
            case ("openapi", true): _ = try await OpenAPIContender.listBranches(client: OpenAPIContender.inMemory)
            case ("openapi", false): _ = try await OpenAPIContender.purchaseCheer(client: OpenAPIContender.inMemory)
            // Over loopback to BENCH_ORIGIN: the client-side cost of a real exchange.
            case ("raw-loopback", true): _ = try await HandWrittenClient.listBranches(origin: remote, sender: rawSender)
            case ("raw-loopback", false): _ = try await HandWrittenClient.purchaseCheer(origin: remote, sender: rawSender)
            case ("EndpointKit-loopback", true): _ = try await EndpointKitClient.listBranches(on: remoteServer)
            case ("EndpointKit-loopback", false): _ = try await EndpointKitClient.purchaseCheer(on: remoteServer)
            case ("openapi-loopback", true): _ = try await OpenAPIContender.listBranches(client: remoteOpenAPI)
            case ("openapi-loopback", false): _ = try await OpenAPIContender.purchaseCheer(client: remoteOpenAPI)
            default: print("unknown contender \(contender)"); exit(2)
            }
        }
    } catch {
        print("call failed: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()
