import EndpointKit
import Foundation

extension MCPServer {
    /// Serves over standard input and output, MCP's stdio transport, until the client closes
    /// standard input and the calls under way have answered: one JSON-RPC message per line each
    /// way, nothing else on standard output.
    /// Log to standard error (a `RequestLogger` that prints there, say): a line of anything else
    /// on standard output breaks the client.
    ///
    /// ```swift
    /// @main struct ReiterateMCP {
    ///     static func main() async throws {
    ///         try await MCPServer(name: "reiterate", version: "1.0", tools: tools).run()
    ///     }
    /// }
    /// ```
    ///
    /// A message longer than ``maximumMessageSize`` is answered with a parse error and skipped.
    /// `SIGPIPE` is ignored from then on, so that a client that goes away ends the loop rather than
    /// the process.
    public func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await run(input: FileHandle.standardInput, output: FileHandle.standardOutput)
    }

    /// The longest message accepted on standard input: 4 MiB.
    public static let maximumMessageSize = 4 << 20

    /// Serves over `input` and `output` (pipes, in a test) as ``run()`` does over standard input
    /// and output, until `input` ends.
    ///
    /// ```swift
    /// try await server.run(input: requests.fileHandleForReading, output: replies.fileHandleForWriting)
    /// ```
    public func run(input: FileHandle, output: FileHandle) async throws {
        for await line in MCPServer.lines(of: input) {
            guard let message = line else {
                write(MCPServer.reply(id: .null, error: -32700, "Parse error: the message is longer than \(MCPServer.maximumMessageSize) bytes"), to: output)
                continue
            }
            guard !message.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) else { continue }
            // Each message is answered in a task of its own, kept only while it runs: a list of
            // every task ever started grew by a kilobyte or more per message.
            let number = nextLine
            nextLine &+= 1
            lineTasks[number] = Task {
                if let reply = await self.handle(message) { self.write(reply, to: output) }
                self.lineTasks[number] = nil  // on the actor, after the line above stored it
            }
        }
        // The client closed its end, which is how MCP's stdio transport ends a session: the calls
        // under way still answer (a client that cannot wait stops the process).
        while let call = lineTasks.values.first { await call.value }
    }

    private func write(_ reply: Data, to output: FileHandle) {
        try? output.write(contentsOf: reply + Data([UInt8(ascii: "\n")]))
    }

    /// The lines of `input`, read on a thread of their own (a blocking read must not hold one of
    /// Swift's concurrency threads); `nil` for a line past the size limit, which is skipped.
    private static func lines(of input: FileHandle) -> AsyncStream<Data?> {
        AsyncStream { continuation in
            let reader = Thread {
                var buffer = Data()
                var skipping = false
                while true {
                    let chunk = input.availableData
                    if chunk.isEmpty { break }
                    var rest = chunk[...]
                    while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                        if skipping {
                            skipping = false
                        } else {
                            buffer.append(contentsOf: rest[rest.startIndex..<newline])
                            continuation.yield(buffer.count > maximumMessageSize ? nil : buffer)
                        }
                        buffer.removeAll(keepingCapacity: true)
                        rest = rest[rest.index(after: newline)...]
                    }
                    if !skipping { buffer.append(contentsOf: rest) }
                    if buffer.count > maximumMessageSize {
                        continuation.yield(nil)
                        buffer.removeAll()
                        skipping = true
                    }
                }
                if !buffer.isEmpty, !skipping { continuation.yield(buffer) }
                continuation.finish()
            }
            reader.start()
        }
    }
}
