// The MCP server runs as a child process (this test binary again) whose resident memory is read
// from /proc: Linux only, like MCPStdioTests.
#if os(Linux)
import EndpointKit
import EndpointKitMCP
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

private struct WalletBalance: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "balance/{userId}") }
    let userId: Int
    struct ReturnPayloadType: Codable, Sendable { let userId: Int; let balance: Int; let history: [Int] }
}

/// An MCP server's memory over a long session: what stays behind per message.
@Suite struct MCPMemoryTests {
    static let childVariable = "ENDPOINTKIT_MCP_MEMORY_CHILD"

    /// Not a test of its own: in the child process (the variable set), the MCP server on standard
    /// input and output, its tool answered from memory; elsewhere it returns at once.
    @Test func `MCP memory child`() async throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else { return }
        let tools = EndpointTools([WalletBalance.self], on: APIServer(origin: URL(string: "https://api.test")!, transport: Canned()))
        try await MCPServer(name: "memory", version: "1.0", tools: tools).run()
    }

    /// Answers every request with the same JSON and keeps nothing (`StubTransport` records every
    /// call, which is what it is for, and would be measured too).
    struct Canned: HTTPTransport {
        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            return (.data(Data(#"{"user_id":7,"balance":200,"history":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]}"#.utf8)), response)
        }
    }

    /// The child's resident memory in bytes, from /proc.
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw Failure(description: "no VmRSS in /proc/\(pid)/status")
        }
        return kilobytes * 1024
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A running child, fed and read over pipes a batch at a time, so that at most one batch of
    /// calls is ever in flight and memory measures what stays, not what waits.
    final class Child: @unchecked Sendable {
        // Used from one thread at a time: `onOwnThread` runs each step to its end.
        let process = Process()
        private let input = Pipe.keptFromOtherChildren(), output = Pipe.keptFromOtherChildren()
        private var buffer = Data()
        private var sent = 0
        private var deadline: ChildDeadline?

        init() throws {
            process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
            process.arguments = ["--testing-library", "swift-testing", "--filter", "MCP memory child"]
            var environment = ProcessInfo.processInfo.environment
            environment[MCPMemoryTests.childVariable] = "1"
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            deadline = ChildDeadline(process, seconds: 300)  // 32,000 messages take seconds
        }

        /// Sends `calls` tool calls and `pings` pings, `batch` at a time, waiting for every reply.
        func exchange(calls: Int, pings: Int, batch: Int = 200) throws {
            var messages: [String] = []
            for index in 0..<calls {
                messages.append(#"{"jsonrpc":"2.0","id":\#(sent + index),"method":"tools/call","params":{"name":"wallet_balance","arguments":{"user_id":\#(index)}}}"#)
            }
            for index in 0..<pings {
                messages.append(#"{"jsonrpc":"2.0","id":"p\#(sent + index)","method":"ping"}"#)
            }
            sent += calls + pings
            var start = 0
            while start < messages.count {
                let slice = messages[start..<min(start + batch, messages.count)]
                try input.fileHandleForWriting.write(contentsOf: Data((slice.joined(separator: "\n") + "\n").utf8))
                try readReplies(slice.count)
                start += batch
            }
        }

        private func readReplies(_ count: Int) throws {
            var seen = 0
            while seen < count {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    guard line.contains(UInt8(ascii: "{")), !String(decoding: line, as: UTF8.self).contains(#""isError":true"#) else {
                        throw Failure(description: "unexpected reply: \(String(decoding: line, as: UTF8.self))")
                    }
                    buffer.removeSubrange(buffer.startIndex...newline)
                    seen += 1
                    continue
                }
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else {
                    throw Failure(description: deadline?.stoppedTheChild == true ? "the server hung and was stopped after 300 s" : "the server closed its output")
                }
                buffer.append(chunk)
            }
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            _ = process.waitForExit()
        }
    }

    /// Before the fix the stdio loop kept every message's task: 39 to 71 MiB over 10,000 calls.
    @Test(.timeLimit(.minutes(10))) func `10,000 calls and 20,000 pings leave at most 2 MiB behind`() async throws {
        let (before, after) = try await onOwnThread { () throws -> (Int, Int) in
            let child = try Child()
            defer { child.stop() }
            try child.exchange(calls: 0, pings: 1)
            try child.exchange(calls: 2_000, pings: 4_000)  // warm-up: caches, allocator pools
            let before = try MCPMemoryTests.residentBytes(of: child.process.processIdentifier)
            try child.exchange(calls: 10_000, pings: 20_000)
            let after = try MCPMemoryTests.residentBytes(of: child.process.processIdentifier)
            return (before, after)
        }
        print("MCP server over stdio: resident \(before / 1024) KiB after warm-up, \(after / 1024) KiB after 10,000 calls and 20,000 pings")
        #expect(after - before <= 2 << 20, "grew by \(after - before) bytes")
    }
}
#endif
