// The servers run as child `Process`es, which exist on macOS and Linux only: on iOS, tvOS and
// watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import Foundation

/// A third-party server under `Server/`, run by the loopback server's Python: a script that
/// prints `READY <port>` and exits when its standard input closes, so when the test process does.
/// Each is started once per test process, on first use.
///
/// `@unchecked Sendable`: `Process` and `Pipe` are set once in `init` and never used again except
/// to keep the pipe (the server's lifeline) open.
final class PythonScriptServer: @unchecked Sendable {
    /// sse-starlette's Server-Sent Events under uvicorn (`APIServer/sse_starlette_server.py`).
    static let sseStarlette = Result { try PythonScriptServer(script: "sse_starlette_server.py", named: "The sse-starlette server") }
    /// FastAPI with slowapi's limiter (`APIServer/slowapi_server.py`).
    static let slowAPI = Result { try PythonScriptServer(script: "slowapi_server.py", named: "The slowapi server") }
    /// A WSGI app under werkzeug's `make_server` (`Server/werkzeug_server.py`).
    static let werkzeug = Result { try PythonScriptServer(script: "werkzeug_server.py", named: "The werkzeug server") }

    let port: Int
    private let process: Process
    private let input: Pipe

    private init(script: String, named name: String) throws {
        let (process, input, _, words) = try RunningLoopbackServer.start(script: script, named: name)
        guard words.count == 2, words[0] == "READY", let port = Int(words[1]) else {
            throw LoopbackServer.StartFailure(description: "\(name) said \(words.joined(separator: " ")).")
        }
        self.port = port
        self.process = process
        self.input = input
    }
}
#endif
