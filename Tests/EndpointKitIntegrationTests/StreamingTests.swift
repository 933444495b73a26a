// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
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

/// Streamed answers from the loopback server's `/stream/` routes (`APIServer/streams.py`): Server-Sent
/// Events, JSON Lines and raw bytes, read as they arrive through the suite's transport (``IntegrationTransport``).
@Suite struct StreamingTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    func server(_ middlewares: [any EndpointMiddleware] = []) -> APIServer {
        var server = loopback.server()
        server.decoder = APIServer.makeDecoder()
        server.middlewares = middlewares
        return server
    }

    struct ChatChunk: Decodable, Sendable {
        struct Choice: Decodable, Sendable {
            struct Delta: Decodable, Sendable { let content: String? }
            let delta: Delta
        }
        let choices: [Choice]
    }

    struct OpenAIError: Decodable, Sendable {
        struct Detail: Decodable, Sendable { let message: String; let code: String }
        let error: Detail
    }

    struct Chat: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/sse/{script}") }
        var script = "chat"
        typealias ReturnPayloadType = ServerSentEvents<ChatChunk>
        static var errorPayloadType: (any (Decodable & Sendable).Type)? { OpenAIError.self }
    }

    struct TextEvents: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/sse/{script}") }
        let script: String
        typealias ReturnPayloadType = ServerSentEvents<String>
    }

    struct AnthropicError: Decodable, Sendable {
        struct Detail: Decodable, Sendable { let type: String; let message: String }
        let error: Detail
    }

    struct Anthropic: Endpoint {
        let endpoint = Restful(.get, "stream/sse/anthropic-error")
        struct Delta: Decodable, Sendable { let text: String }
        typealias ReturnPayloadType = ServerSentEvents<Delta>
        static var errorPayloadType: (any (Decodable & Sendable).Type)? { AnthropicError.self }
    }

    struct Endless: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/endless/{key}") }
        let key: String
        var every = 0.02
        var pad = 0
        var limit = 0
        struct Tick: Decodable, Sendable { let n: Int; let sent: Double }
        typealias ReturnPayloadType = ServerSentEvents<Tick>
    }

    struct Closed: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/closed/{key}") }
        let key: String
        struct ReturnPayloadType: Decodable, Sendable { let closed: Bool; let events: Int }
    }

    /// Polls the server until it has seen the stream `key` closed; fails after 20 s.
    func waitUntilClosed(_ key: String) async throws -> Closed.ReturnPayloadType {
        let start = Date()
        while true {
            let state = try await Closed(key: key).call(on: server())
            if state.closed || Date().timeIntervalSince(start) > 20 { return state }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    // MARK: - Server-Sent Events

    @Test func `chat completion chunks decode in order and data [DONE] ends the loop`() async throws {
        var words: [String] = []
        for try await event in try await Chat().call(on: server()) {
            words.append(event.data.choices[0].delta.content ?? "")
            #expect(event.type == "message")
        }
        #expect(words == ["Hello", ",", " world", "!", " Bye."])
    }

    @Test func `the standard's edge cases arrive as written: BOM, comments, CR, CRLF, split UTF-8, multi-line data, id reset`() async throws {
        var events: [ServerSentEvent<String>] = []
        for try await event in try await TextEvents(script: "edge").call(on: server()) {
            events.append(event)
        }
        #expect(events == [
            ServerSentEvent(type: "greet", data: "line one\nline two", id: "7"),
            ServerSentEvent(data: "cr only", id: "7"),
            ServerSentEvent(data: "café", id: "7"),
            ServerSentEvent(data: "", id: "7"),
            ServerSentEvent(data: " two spaces", id: nil),
            ServerSentEvent(type: "ping", data: "{\"n\":\n1}", id: nil),
        ])  // and "after the end", sent after [DONE], is never read
    }

    @Test func `the request asks for text/event-stream`() async throws {
        struct EchoEvents: Endpoint {
            let endpoint = Restful(.get, "respond?type=text/event-stream&body=data:%20x%0A%0A")
            typealias ReturnPayloadType = ServerSentEvents<String>
        }
        let response = try await EchoEvents().callWithMetadata(on: server())
        #expect(response.request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
        var data: [String] = []
        for try await event in response.payload { data.append(event.data) }
        #expect(data == ["x"])
    }

    @Test func `an error event mid-stream is thrown with its decoded payload, after the events before it`() async throws {
        var texts: [String] = []
        let error = await #expect(throws: EndpointError.self) {
            for try await event in try await Anthropic().call(on: server()) { texts.append(event.data.text) }
        }
        #expect(texts == ["Hi"])
        #expect(error?.kind == .streamError)
        let payload = error?.errorPayload as? AnthropicError
        #expect(payload?.error.type == "overloaded_error")
        #expect(payload?.error.message == "Overloaded")
        #expect(error?.description.contains("\"error\" event as event 2") == true)
    }

    @Test func `an OpenAI error object in place of a chunk is thrown as the error payload`() async throws {
        var count = 0
        let error = await #expect(throws: EndpointError.self) {
            for try await _ in try await Chat(script: "openai-error").call(on: server()) { count += 1 }
        }
        #expect(count == 1)
        #expect(error?.kind == .streamError)
        #expect((error?.errorPayload as? OpenAIError)?.error.code == "rate_limit_exceeded")
    }

    @Test func `a 4xx is thrown before any event, with its body and error payload`() async throws {
        struct Refused: Endpoint {
            let endpoint = Restful(.get, "respond?status=429&body=%7B%22error%22%3A%7B%22message%22%3A%22slow%20down%22%2C%22code%22%3A%22rate%22%7D%7D")
            typealias ReturnPayloadType = ServerSentEvents<ChatChunk>
            static var errorPayloadType: (any (Decodable & Sendable).Type)? { OpenAIError.self }
        }
        let error = await #expect(throws: EndpointError.self) { _ = try await Refused().call(on: server()) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.statusCode == 429)
        #expect((error?.errorPayload as? OpenAIError)?.error.message == "slow down")
    }

    @Test func `an expired token is refreshed before the stream starts, and the events follow`() async throws {
        let middleware = try await MiddlewareIntegrationTests()
        let realm = "stream-\(UUID().uuidString)"
        try await MiddlewareIntegrationTests.Configure(realm: realm, refresh: "refresh-0", refreshWorks: true).call(on: server())
        let (api, _) = middleware.refreshing(realm: realm, store: InMemoryTokenStore(Tokens(accessToken: "stale", refreshToken: "refresh-0")))
        struct Events: Endpoint {
            var endpoint: Restful { Restful(.get, "stream/tokens/{realm}/events") }
            let realm: String
            typealias ReturnPayloadType = ServerSentEvents<ChatChunk>
        }
        var words: [String] = []
        for try await event in try await Events(realm: realm).call(on: api) {
            words.append(event.data.choices[0].delta.content ?? "")
        }
        #expect(words.joined() == "Hello, world! Bye.")
        let stats = try await MiddlewareIntegrationTests.Stats(realm: realm).call(on: server())
        #expect(stats.refreshes == 1)
        #expect(stats.meCalls == 2)  // refused once with the stale token, then streamed
    }

    @Test func `an endless stream streams: events arrive while the server is still sending`() async throws {
        let key = UUID().uuidString
        var seen: [Int] = []
        for try await event in try await Endless(key: key).call(on: server()) {
            seen.append(event.data.n)
            if seen.count == 5 { break }
        }
        #expect(seen == [0, 1, 2, 3, 4])
    }

    @Test func `breaking out of the loop closes the connection, and the server sees it`() async throws {
        let key = UUID().uuidString
        var count = 0
        for try await _ in try await Endless(key: key).call(on: server()) {
            count += 1
            if count == 3 { break }
        }
        let state = try await waitUntilClosed(key)
        #expect(state.closed)  // within the 20 s the wait allows; the benchmark measures how soon
    }

    @Test func `cancelling the task that reads closes the connection, and the loop throws CancellationError`() async throws {
        let key = UUID().uuidString
        let api = server()
        let started = AsyncStream<Void>.makeStream()
        let reader = Task {
            var count = 0
            for try await _ in try await Endless(key: key).call(on: api) {
                count += 1
                if count == 2 { started.continuation.yield() }
            }
        }
        for await _ in started.stream { break }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(try await waitUntilClosed(key).closed)
    }

    /// The stream's resident growth is measured in a process of its own where one can be started
    /// (Linux: this test binary run again), so that it is the stream's alone: in the test process,
    /// tests running beside it allocated 80 MB of their own and failed the bound without a cause.
    @Test func `a slow reader of a fast endless stream keeps memory flat and loses nothing`() async throws {
        #if os(Linux)
        let (growth, sent, next) = try await Self.slowReaderInChild()
        #else
        let (growth, sent, next) = try await measureSlowReader()
        #endif
        print("A slow reader of a fast endless stream: resident size grew \(growth >> 20) MB while \(sent) events of 1 KB arrived")
        if IntegrationTransport.readsStreamsAhead {
            #expect(sent == 200_000, "the server sent only \(sent) events: the test did not stress the buffer")
        } else {
            #expect(sent > 20 && sent < 100_000, "the server sent \(sent) events to a loop that read 1")
        }
        if MemorySampler.tracksHeldMemory {
            #expect(growth < 64 << 20, "memory grew by \(growth >> 20) MB while \(sent) events of 1 KB arrived")
        }
        #expect(next == 20_000)  // every event, in order, from memory and then from disk
    }

    static let slowReaderVariable = "ENDPOINTKIT_SLOW_READER_CHILD"

    /// Not a test of its own: in the child process (the variable set), the measurement, printed
    /// for the test above; elsewhere it returns at once.
    @Test func `slow reader child`() async throws {
        guard ProcessInfo.processInfo.environment[Self.slowReaderVariable] != nil else { return }
        let (growth, sent, next) = try await measureSlowReader()
        print("SLOW-READER \(growth) \(sent) \(next)")
    }

    #if os(Linux)
    static func slowReaderInChild() async throws -> (growth: Int, sent: Int, next: Int) {
        let output = try await onOwnThread { () throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
            process.arguments = ["--testing-library", "swift-testing", "--filter", "slow reader child"]
            process.environment = ProcessInfo.processInfo.environment.merging([Self.slowReaderVariable: "1"]) { $1 }
            let output = try ChildOutput()
            process.standardOutput = output.handle
            process.standardError = output.handle
            try process.run()
            let deadline = ChildDeadline(process, seconds: 300)  // it reads for seconds
            _ = process.waitForExit()
            return (deadline.stoppedTheChild ? "stopped after 300 s, a hang\n" : "") + output.text
        }
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("SLOW-READER ") }, "the child said: \(output.suffix(3000))")
        let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        try #require(numbers.count == 3, "\(line)")
        return (numbers[0], numbers[1], numbers[2])
    }
    #endif

    /// A slow reader of 200,000 events of 1 KB: the resident growth while it is away, the events
    /// the server sent meanwhile, and the number of the 20,000th event read after.
    private func measureSlowReader() async throws -> (growth: Int, sent: Int, next: Int) {
        let key = UUID().uuidString
        // 200,000 events of 1 KB as fast as the socket takes them, then silence.
        var iterator = try await Endless(key: key, every: 0, pad: 1000, limit: 200_000).call(on: server()).makeAsyncIterator()
        _ = try await iterator.next()
        let before = MemorySampler.residentBytes()
        // While the loop is away, a transport that reads ahead takes everything the server sends
        // (200 MB), which must wait on disk rather than in memory; one that reads only as fast as
        // the loop holds the server back, which stops sending once the socket's buffers are full.
        var sent = 0, previous = -1
        let start = Date()
        while Date().timeIntervalSince(start) < 60 {
            if IntegrationTransport.readsStreamsAhead ? sent == 200_000 : sent == previous { break }
            previous = sent
            try await Task.sleep(nanoseconds: IntegrationTransport.readsStreamsAhead ? 100_000_000 : 1_000_000_000)
            sent = try await Closed(key: key).call(on: server()).events
        }
        let growth = MemorySampler.residentBytes() - before
        var next = 0
        for _ in 0..<20_000 { next = try await iterator.next()?.data.n ?? -1 }
        return (growth, sent, next)
    }

    @Test func `reconnection resumes after the last event id with the server's retry delay`() async throws {
        struct Resuming: Endpoint {
            var endpoint: Restful { Restful(.get, "stream/reconnect/{key}") }
            let key: String
            typealias ReturnPayloadType = ServerSentEvents<String>
            static var streaming: StreamingOptions {
                StreamingOptions(reconnection: Reconnection(maximumAttempts: 3, initialDelay: 10))
            }
        }
        struct Log: Endpoint {
            var endpoint: Restful { Restful(.get, "stream/reconnect-log/{key}") }
            let key: String
            struct ReturnPayloadType: Decodable, Sendable { let lastEventIds: [String?] }
        }
        let key = UUID().uuidString
        var events: [ServerSentEvent<String>] = []
        for try await event in try await Resuming(key: key).call(on: server()) { events.append(event) }
        #expect(events.map(\.data) == ["one", "two", "three"])  // the half event before the drop is discarded
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(try await Log(key: key).call(on: server()).lastEventIds == [nil, "2"])
    }

    @Test func `without reconnection a dropped connection ends the loop with a transport error`() async throws {
        struct Dropping: Endpoint {
            var endpoint: Restful { Restful(.get, "stream/reconnect/{key}") }
            let key: String
            typealias ReturnPayloadType = ServerSentEvents<String>
        }
        var data: [String] = []
        do {
            for try await event in try await Dropping(key: UUID().uuidString).call(on: server()) { data.append(event.data) }
        } catch let error as EndpointError {
            #expect(error.kind == .transportFailed)
        }
        // libcurl may report the shutdown as a clean end; either way the half event is not an event.
        #expect(data == ["one", "two"])
    }

    @Test func `an idle stream times out with the endpoint's idle timeout`() async throws {
        struct Quiet: Endpoint {
            let endpoint = Restful(.get, "trickle?every=30&count=2")
            typealias ReturnPayloadType = ByteStream
            // 10 s: far from both the first byte (at once) and the second (30 s later). At 1 s, a
            // loaded machine delayed the first byte past it (chunks 0 instead of 1).
            static var streaming: StreamingOptions { StreamingOptions(idleTimeout: 10) }
        }
        var chunks = 0
        let error = await #expect(throws: EndpointError.self) {
            for try await _ in try await Quiet().call(on: server()) { chunks += 1 }
        }
        #expect(chunks == 1)  // the first byte; the second would come 30 s later
        #expect(error?.kind == .transportFailed)
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
    }

    // MARK: - JSON Lines and bytes

    struct Rows: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/jsonl") }
        var rows = 5
        var bad = 0
        struct Row: Decodable, Sendable, Equatable { let n: Int; let name: String }
        typealias ReturnPayloadType = JSONLines<Row>
    }

    @Test func `JSON Lines rows decode one by one, over LF and CRLF, skipping blank lines`() async throws {
        var rows: [Rows.Row] = []
        let response = try await Rows().callWithMetadata(on: server())
        for try await row in response.payload { rows.append(row) }
        #expect(rows == (1...5).map { Rows.Row(n: $0, name: "row \($0)") })
        #expect(response.request.value(forHTTPHeaderField: "Accept") == "application/jsonl, application/x-ndjson")
    }

    @Test func `a JSON Lines row that does not decode fails naming its line, after the rows before it`() async throws {
        var rows: [Int] = []
        let error = await #expect(throws: EndpointError.self) {
            for try await row in try await Rows(bad: 3).call(on: server()) { rows.append(row.n) }
        }
        #expect(rows == [1, 2])
        #expect(error?.kind == .decodingFailed)
        #expect(error?.description.contains("line 4 of the stream") == true)  // row 1 is followed by a blank line
    }

    @Test func `a raw byte stream reads lines`() async throws {
        struct Raw: Endpoint {
            let endpoint = Restful(.get, "stream/jsonl?rows=3")
            typealias ReturnPayloadType = ByteStream
        }
        var lines: [String] = []
        for try await line in try await Raw().call(on: server()).lines { lines.append(line) }
        #expect(lines == [#"{"n": 1, "name": "row 1"}"#, "", #"{"n": 2, "name": "row 2"}"#, #"{"n": 3, "name": "row 3"}"#])
    }
}
#endif
