// The servers run as child `Process`es, which exist on macOS and Linux only: on iOS, tvOS and
// watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Server-Sent Events from sse-starlette (PyPI), served by uvicorn: an implementation nobody on
/// EndpointKit wrote, with its own framing (CRLF line ends, `retry`, keep-alive pings).
@Suite struct ThirdPartySSETests {
    let server: Server

    init() async throws {
        let port = try await onOwnThread { try StarletteServer.shared() }
        server = Server(origin: URL(string: "http://127.0.0.1:\(port)")!, pathPrefix: "")
    }

    struct Update: Decodable, Sendable, Equatable { let n: Int; let word: String }

    struct Updates: Endpoint {
        let endpoint = Restful(.get, "events")
        typealias ReturnPayloadType = ServerSentEvents<Update>
    }

    struct Everything: Endpoint {
        let endpoint = Restful(.get, "events")
        typealias ReturnPayloadType = ServerSentEvents<String>
    }

    @Test func `sse-starlette's events decode with their types and ids`() async throws {
        var events: [ServerSentEvent<String>] = []
        for try await event in try await Everything().call(on: server) { events.append(event) }
        let words = ["alpha", "beta", "gamma", "delta", "epsilon"]
        #expect(events.count == 6)
        #expect(events.prefix(5).map(\.type) == Array(repeating: "update", count: 5))
        #expect(events.map(\.id) == (1...6).map { String($0) })
        #expect(events.prefix(5).map(\.data) == (1...5).map { #"{"n": \#($0), "word": "\#(words[$0 - 1])"}"# })
        #expect(events.last == ServerSentEvent(type: "note", data: "first line\nsecond line", id: "6"))
    }

    @Test func `a stream whose events are not all the payload fails at the first that is not`() async throws {
        var updates: [Update] = []
        let error = await #expect(throws: EndpointError.self) {
            for try await event in try await Updates().call(on: server) { updates.append(event.data) }
        }
        #expect(updates.map(\.n) == [1, 2, 3, 4, 5])
        #expect(error?.kind == .decodingFailed)  // the "note" event's data is text
    }

    @Test func `breaking out of an endless sse-starlette stream is seen by the server`() async throws {
        struct Endless: Endpoint {
            var endpoint: Restful { Restful(.get, "endless/{key}") }
            let key: String
            struct Tick: Decodable, Sendable { let n: Int }
            typealias ReturnPayloadType = ServerSentEvents<Tick>
        }
        struct Closed: Endpoint {
            var endpoint: Restful { Restful(.get, "closed/{key}") }
            let key: String
            struct ReturnPayloadType: Decodable, Sendable { let closed: Bool }
        }
        let key = UUID().uuidString
        var seen: [Int] = []
        for try await event in try await Endless(key: key).call(on: server) {
            seen.append(event.data.n)
            if seen.count == 3 { break }
        }
        #expect(seen == [0, 1, 2])
        let start = Date()
        var closed = false
        while !closed, Date().timeIntervalSince(start) < 20 {
            try await Task.sleep(nanoseconds: 20_000_000)
            closed = try await Closed(key: key).call(on: server).closed
        }
        #expect(closed)
    }
}

/// `Server/sse_starlette_server.py` under uvicorn, started once per test process with the
/// loopback server's Python; it exits when the test process does (its standard input closes).
enum StarletteServer {
    static func shared() throws -> Int {
        try started.get().port
    }

    private static let started = Result { try Running() }

    /// `@unchecked Sendable`: `Process` and `Pipe` are set once in `init` and never used again
    /// except to keep the pipe (the server's lifeline) open.
    final class Running: @unchecked Sendable {
        let port: Int
        private let process: Process
        private let input: Pipe

        init() throws {
            let (process, input, _, words) = try RunningLoopbackServer.start(
                script: "sse_starlette_server.py", named: "The sse-starlette server")
            guard words.count == 2, words[0] == "READY", let port = Int(words[1]) else {
                throw LoopbackServer.StartFailure(description: "The sse-starlette server said \(words.joined(separator: " ")).")
            }
            self.port = port
            self.process = process
            self.input = input
        }
    }
}
#endif
