// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation

/// The real HTTP server the integration tests talk to: `APIServer/loopback_server.py`, started once
/// per test process on two free ports of 127.0.0.1, and stopped when the process ends (the server
/// exits when its standard input closes).
///
/// Starting it fails the tests that need it; they are never skipped.
struct LoopbackServer: Sendable {
    /// The main port.
    let port: Int
    /// A second port: another origin, for redirect tests.
    let otherPort: Int
    /// A port that plays an FTP server and records the commands it receives (`/ftp-log`).
    let ftpPort: Int

    var origin: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var otherOrigin: URL { URL(string: "http://127.0.0.1:\(otherPort)")! }

    /// The server, started on first use, on a thread of its own: the first start may make a
    /// Python virtual environment and run `pip install` for a minute or two, and callers waiting
    /// for it must not hold Swift concurrency's threads (two on these machines) meanwhile, or every
    /// other test, in-memory ones included, stalls and times out. There is no blocking accessor.
    /// The server runs (its stdin open) for the life of the test process.
    static func ready() async throws -> LoopbackServer {
        if let server = current { return server }
        let server = try await onOwnThread { try started.get().server }
        readyServer.withLock { $0 = server }
        return server
    }

    /// The server once ``ready()`` has returned it, without waiting: for a static requirement
    /// (an endpoint family's `server`) read by tests that started it first.
    static var current: LoopbackServer? { readyServer.withLock { $0 } }

    private static let readyServer = Protected<LoopbackServer?>(nil)
    private static let started = Result { try RunningLoopbackServer() }

    /// A server of its own, for a test that stops it (`RunningLoopbackServer.stop()`), started on a
    /// thread of its own like ``ready()``.
    static func launch() async throws -> RunningLoopbackServer {
        try await onOwnThread { try RunningLoopbackServer() }
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }
}

/// A loopback server process: it serves until `stop()` closes its standard input.
///
/// `@unchecked Sendable`: `Process` and `Pipe` are not `Sendable`; the stored properties are set
/// once in `init`, and `stop()` only closes the pipe and waits.
final class RunningLoopbackServer: @unchecked Sendable {
    let server: LoopbackServer
    private let process: Process
    private let input: Pipe
    private let output: Pipe

    init() throws {
        let (process, input, output, words) = try Self.start(script: "loopback_server.py", named: "The loopback server")
        self.process = process
        self.input = input
        self.output = output
        let line = words.joined(separator: " ")
        guard words.count == 4, words[0] == "READY", let port = Int(words[1]), let otherPort = Int(words[2]),
              let ftpPort = Int(words[3]) else {
            throw LoopbackServer.StartFailure(description: "The loopback server said \(line).")
        }
        server = LoopbackServer(port: port, otherPort: otherPort, ftpPort: ftpPort)
    }

    /// Starts `Server/<script>` with the tests' Python and waits for its first line, which it
    /// prints when it is ready (`READY <port> …`): the process, its standard input (the server's
    /// lifeline) and output, and the line's words.
    static func start(script name: String, named title: String) throws -> (Process, Pipe, Pipe, [Substring]) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Server/\(name)")
        let process = Process()
        process.executableURL = try PythonEnvironment.interpreter()
        process.arguments = [script.path]
        let input = Pipe.keptFromOtherChildren()  // the server's lifeline: it ends when this pipe does
        let output = Pipe.keptFromOtherChildren()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw LoopbackServer.StartFailure(description: "Could not start \(process.executableURL?.path ?? "python3") \(script.path): \(error)")
        }
        var line = Data()
        let deadline = ChildDeadline(process, seconds: 120)  // ready in well under a second
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                let what = deadline.stoppedTheChild ? "was not ready after 120 s and was stopped" : "exited before it was ready"
                throw LoopbackServer.StartFailure(description: "\(title) \(what); run python3 \(script.path) to see why.")
            }
            line.append(chunk)
        }
        deadline.disarm()
        return (process, input, output, String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace))
    }

    /// Stops the server and waits until its process has exited, so that its ports refuse
    /// connections.
    func stop() async {
        try? input.fileHandleForWriting.close()
        while process.isRunning {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}
#endif
