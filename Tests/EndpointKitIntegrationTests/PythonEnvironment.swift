// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import Foundation

/// The Python that runs the loopback server: `python3` itself when it already has the modules the
/// server needs, otherwise a virtual environment under `.build/` that the test process makes once
/// (with `pip` from PyPI) and reuses. Debian's system Python refuses `pip install`, so a virtual
/// environment is the one way that works everywhere.
///
/// When neither works, it fails with one message that says exactly what to run.
enum PythonEnvironment {
    /// What the test servers import beyond the standard library: werkzeug (the loopback server's
    /// multipart parser), sse-starlette and uvicorn (a Server-Sent Events server nobody here wrote);
    /// and what the contract tests check documents with: openapi-spec-validator and jsonschema.
    /// openapi-core validates captured requests against exported documents, and
    /// hypothesis-jsonschema generates instances of exported schemas. `mcp`, the official MCP SDK,
    /// is the client of the MCP server tests (pinned: its 2.x releases change often). FastAPI with
    /// slowapi is the real rate limiter of the pacing tests.
    static let modules = ["werkzeug", "sse_starlette", "uvicorn", "openapi_spec_validator", "jsonschema", "openapi_core", "hypothesis_jsonschema", "mcp", "fastapi", "slowapi"]
    /// The PyPI packages that provide ``modules`` (hypothesis-jsonschema works with hypothesis
    /// before 6.140; left free, pip settles on openapi-core 0.14, which does not import beside the
    /// newest openapi-spec-validator).
    static let packages = [
        "werkzeug", "sse-starlette", "uvicorn", "openapi-spec-validator", "jsonschema", "openapi-core>=0.19", "hypothesis-jsonschema", "hypothesis<6.140",
        "mcp==2.3.0", "fastapi", "slowapi",
    ]

    /// The folder of the virtual environment: `.build/loopback-python` in the root package (the
    /// `EndpointKitAsyncHTTPClient` package reaches these files through a link, and shares it).
    static let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/loopback-python")

    /// The interpreter to start the loopback server with. Prepared once per test process: suites
    /// that run at the same time (the loopback server, the contract tests) would otherwise build
    /// the environment in the same staging folder and break each other's `ensurepip`.
    static func interpreter() throws -> URL {
        try prepared.get()
    }

    private static let prepared = Result { try prepare() }

    private static func prepare() throws -> URL {
        if let system = which("python3"), hasModules(system) { return system }
        let python = folder.appendingPathComponent("bin/python")
        if hasModules(python) { return python }
        try create()
        guard hasModules(python) else {
            throw LoopbackServer.StartFailure(description: instructions(because: "\(modules.joined(separator: ", ")) are still missing after the install"))
        }
        return python
    }

    /// Makes the virtual environment in a folder of its own, then moves it into place, so that two
    /// test processes starting at once do not write into the same folder.
    private static func create() throws {
        guard let system = which("python3") else {
            throw LoopbackServer.StartFailure(description: instructions(because: "python3 is not on the PATH"))
        }
        let fileManager = FileManager.default
        try? fileManager.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        let staging = folder.deletingLastPathComponent().appendingPathComponent("loopback-python-\(ProcessInfo.processInfo.processIdentifier)")
        try? fileManager.removeItem(at: staging)
        let steps: [(URL, [String])] = [
            (system, ["-m", "venv", staging.path]),
            (staging.appendingPathComponent("bin/python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages),
        ]
        for (executable, arguments) in steps {
            let (status, output) = run(executable, arguments)
            guard status == 0 else {
                try? fileManager.removeItem(at: staging)
                let detail = output.split(separator: "\n").suffix(3).joined(separator: " / ")
                throw LoopbackServer.StartFailure(description: instructions(
                    because: "`\(executable.lastPathComponent) \(arguments.joined(separator: " "))` failed (\(detail))"))
            }
        }
        try? fileManager.removeItem(at: folder)  // a broken one from an interrupted run
        if (try? fileManager.moveItem(at: staging, to: folder)) == nil {
            try? fileManager.removeItem(at: staging)  // another process moved its own into place first
        }
    }

    private static func instructions(because reason: String) -> String {
        let path = folder.path
        return """
            The integration tests run loopback servers that need Python 3 with \(packages.joined(separator: ", ")), \
            and preparing it failed: \(reason). Run once, then test again: \
            python3 -m venv '\(path)' && '\(path)/bin/python' -m pip install \(packages.joined(separator: " ")) \
            (on Debian or Ubuntu without venv: apt-get install python3-venv).
            """
    }

    private static func hasModules(_ python: URL) -> Bool {
        FileManager.default.isExecutableFile(atPath: python.path)
            && run(python, ["-c", modules.map { "import \($0)" }.joined(separator: "; ")]).status == 0
    }

    private static func which(_ name: String) -> URL? {
        let (status, output) = run(URL(fileURLWithPath: "/usr/bin/env"), ["which", name])
        let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return status == 0 && !path.isEmpty ? URL(fileURLWithPath: path) : nil
    }

    /// Runs a program to its end, stopped if it runs past `seconds` (a hang, not a slow run: a pip
    /// install or the schema property test take a few minutes at most); its exit status and what it
    /// printed (standard output and error).
    static func run(_ executable: URL, _ arguments: [String], seconds: Double = 900) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output: ChildOutput
        do {
            output = try ChildOutput()
            process.standardOutput = output.handle
            process.standardError = output.handle
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let deadline = ChildDeadline(process, seconds: seconds)
        let status = process.waitForExit()
        let stopped = deadline.stoppedTheChild ? "\n(stopped after \(Int(seconds)) s, a hang)" : ""
        return (status, output.text + stopped)
    }
}

/// Runs blocking `work` (a child process, a pipe read to its end) on a thread of its own.
///
/// Swift concurrency has as many threads as cores, two on the machines here. A test that blocked
/// one of them while a child process ran for a minute would hold back every other test's timers,
/// and timeouts measured elsewhere would stretch by as long.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
#endif
