// Child processes exist on macOS and Linux only.
#if os(macOS) || os(Linux)
import Foundation

/// A Python virtual environment under the package's `.build/` with pinned packages, made on first
/// use. Making it fails the test (never skips it) with what to run by hand.
struct PythonEnvironment: Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let folder: URL
    let packages: [String]
    /// Python code that succeeds only when the pinned releases are installed.
    let check: String

    /// The environment's interpreter, after installing `packages` when `check` fails.
    func interpreter() throws -> URL {
        let python = folder.appendingPathComponent("bin/python")
        if Self.run(python, ["-c", check]) == 0 { return python }
        try? FileManager.default.removeItem(at: folder)
        guard Self.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", folder.path]) == 0,
              Self.run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages) == 0,
              Self.run(python, ["-c", check]) == 0 else {
            throw Failure(description: "could not prepare Python; run: python3 -m venv '\(folder.path)' && '\(python.path)' -m pip install \(packages.joined(separator: " "))")
        }
        return python
    }

    /// The exit status of `executable` with `arguments`, its output discarded; -1 when it cannot start.
    static func run(_ executable: URL, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
#endif
