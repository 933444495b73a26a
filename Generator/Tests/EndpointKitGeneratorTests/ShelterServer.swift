// The shelter server runs as a child `Process`, which exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import Foundation

/// The FastAPI shelter server (`Servers/shelter.py`) on 127.0.0.1, in a virtual environment under
/// `.build/` with the FastAPI release the snapshot was made with. Starting it fails the test (never
/// skips it) with what to run by hand.
final class ShelterServer: @unchecked Sendable {  // its fields are set once, in init
    /// The release whose document the snapshot holds: FastAPI and Pydantic write documents
    /// slightly differently from release to release.
    static let packages = ["fastapi==0.165.0", "pydantic==2.14.4", "uvicorn==0.54.0"]
    static let environment = Snapshots.package.appendingPathComponent(".build/shelter-python")

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    let origin: URL
    private let process: Process

    init() throws {
        let python = try ShelterServer.interpreter()
        process = Process()
        process.executableURL = python
        process.arguments = [Snapshots.package.appendingPathComponent("Tests/EndpointKitGeneratorTests/Servers/shelter.py").path]
        let output = Pipe()
        // Kept from the other children tests start meanwhile, which would otherwise hold it open.
        _ = fcntl(output.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardOutput = output
        try process.run()
        // The first line is the port; the server accepts connections once it is printed.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw StartFailure(description: "the shelter server did not start (it printed \"\(String(decoding: line, as: UTF8.self))\")")
        }
        origin = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit {
        // SIGKILL: on SIGTERM uvicorn waits for the client's idle keep-alive connections to close.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The document the running server publishes.
    func document() throws -> Data {
        try Data(contentsOf: origin.appendingPathComponent("openapi.json"))
    }

    /// The interpreter, with the FastAPI release the snapshot was made with.
    private static let prepared = Result {
        try PythonEnvironment(folder: environment, packages: packages,
                              check: "import fastapi, pydantic, uvicorn; assert fastapi.__version__ == '0.165.0'").interpreter()
    }
    static func interpreter() throws -> URL { try prepared.get() }
}
#endif
