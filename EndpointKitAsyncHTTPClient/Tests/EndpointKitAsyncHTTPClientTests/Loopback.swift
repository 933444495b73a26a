import EndpointKit
import Foundation

/// EndpointKit's own loopback test server (`Tests/EndpointKitIntegrationTests/Server/loopback_server.py`
/// in the root package), started once per test process with `python3` on free ports of 127.0.0.1.
/// The routes these tests use need only Python's standard library. It stops when the tests end
/// (the server exits when its standard input closes). Starting it fails the tests; none is skipped.
struct Loopback: Sendable {
    let port: Int
    let otherPort: Int

    var origin: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var otherOrigin: URL { URL(string: "http://127.0.0.1:\(otherPort)")! }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The server, started on first use on a thread of its own (never holding the cooperative pool).
    static func ready() async throws -> Loopback {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: started) }
        }
    }

    private static let started = Result { try start() }
    /// The process's standard input, open for the life of the test process.
    nonisolated(unsafe) private static var lifeline: Pipe?

    private static func start() throws -> Loopback {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/EndpointKitIntegrationTests/Server/loopback_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw StartFailure(description: "could not start python3 \(script.path): \(error)")
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw StartFailure(description: "\(script.path) exited before it was ready") }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 4, words[0] == "READY", let port = Int(words[1]), let other = Int(words[2]) else {
            throw StartFailure(description: "the loopback server said \(words)")
        }
        lifeline = input
        return Loopback(port: port, otherPort: other)
    }
}
