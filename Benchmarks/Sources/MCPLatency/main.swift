// What MCP adds to a tool call (issue 39), measured against BenchServer (run by run.sh):
//
//   MCPLatency ORIGIN [--smoke]    the paired runs; one tab-separated line per figure
//   MCPLatency ORIGIN --serve      the MCP server over stdio that the paired runs talk to
//
// Each round makes the same purchase three ways, in an order that rotates round to round: directly
// with `call(on:)`, through `MCPServer.handle(_:)` in this process, and as a raw `tools/call` line to
// the server above, a child process, over its standard input and output (what a client's stdio
// transport does). The overheads are medians of the per-round differences, so that a slow moment
// of the machine weighs on both sides of a pair alike.
import EndpointKit
import EndpointKitMCP
import EndpointKitTools
import Foundation

struct PurchaseCheer: Endpoint, Codable {
    var endpoint: Restful { Restful(.post, "purchase_cheer", version: 2) }
    let identifier: String
    let transactionId: UInt64
    struct ReturnPayloadType: Codable, Sendable { let balance: Int }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let origin = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: MCPLatency ORIGIN [--smoke | --serve]\n".utf8))
    exit(2)
}
let server = APIServer(origin: origin)
let tools = EndpointTools([PurchaseCheer.self], on: server)

if arguments.contains("--serve") {
    try await MCPServer(name: "latency", version: "1", tools: tools).run()
    exit(0)
}

let rounds = arguments.contains("--smoke") ? 10 : 200
let warmUp = arguments.contains("--smoke") ? 2 : 30
let call = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"purchase_cheer","arguments":{"identifier":"cheer.large","transaction_id":2000000000001}}}"#

/// The MCP server as a child process, one JSON-RPC line each way.
final class Child {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffer = Data()

    init() throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [CommandLine.arguments[1], "--serve"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Sends `line` and returns the next line the server writes.
    func exchange(_ line: String) -> Data {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let reply = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                return Data(reply)
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { fatalError("the MCP server closed its output") }
            buffer.append(more)
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func milliseconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1_000_000 }
func median(_ values: [Int64]) -> Int64 { values.sorted()[values.count / 2] }

let child = try Child()
let initialize = child.exchange(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#)
guard String(decoding: initialize, as: UTF8.self).contains("\"result\"") else { fatalError("initialize failed: \(String(decoding: initialize, as: UTF8.self))") }
let inProcess = MCPServer(name: "latency", version: "1", tools: tools)

var direct: [Int64] = [], handled: [Int64] = [], stdio: [Int64] = []
for round in 0..<(warmUp + rounds) {
    var times: [Int64] = [0, 0, 0]
    for step in 0..<3 {
        let way = (round + step) % 3
        let start = now()
        switch way {
        case 0:
            let balance = try await PurchaseCheer(identifier: "cheer.large", transactionId: 2_000_000_000_001).call(on: server).balance
            precondition(balance == 200)
        case 1:
            let reply = await inProcess.handle(Data(call.utf8))
            precondition(reply.map { String(decoding: $0, as: UTF8.self).contains(#""structuredContent":{"balance":200}"#) } == true)
        default:
            let reply = child.exchange(call)
            precondition(String(decoding: reply, as: UTF8.self).contains(#""structuredContent":{"balance":200}"#), String(decoding: reply, as: UTF8.self))
        }
        times[way] = Int64(now() - start)
    }
    guard round >= warmUp else { continue }
    direct.append(times[0]); handled.append(times[1]); stdio.append(times[2])
}
child.stop()

func report(_ name: String, _ value: Double, _ unit: String, _ note: String) {
    FileHandle.standardOutput.write(Data("\(name)\t\(String(format: "%.3f", value))\t\(unit)\t\(note)\t\n".utf8))
}
report("mcp_direct_call", milliseconds(median(direct)), "ms", "median of \(rounds), call(on:)")
report("mcp_handle_call", milliseconds(median(handled)), "ms", "median of \(rounds), MCPServer.handle in process")
report("mcp_stdio_call", milliseconds(median(stdio)), "ms", "median of \(rounds), raw tools/call to a child over stdio")
report("mcp_handle_overhead", milliseconds(median(zip(handled, direct).map { $0 - $1 })), "ms", "median of paired differences")
report("mcp_stdio_overhead", milliseconds(median(zip(stdio, direct).map { $0 - $1 })), "ms", "median of paired differences")
