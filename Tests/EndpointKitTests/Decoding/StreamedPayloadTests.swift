import EndpointKit
import EndpointKitTestSupport
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Streamed payloads without a server: StubTransport's chunk and event answers, transports that
/// stream (or do not), middlewares, reconnection and downloads.
@Suite(.timeLimit(.minutes(1))) struct StreamedPayloadTests {
    struct Delta: Decodable, Sendable, Equatable { let text: String }

    struct Chat: Endpoint {
        let endpoint = Restful(.post, "chat")
        let prompt: String
        typealias ReturnPayloadType = ServerSentEvents<Delta>
    }

    struct Rows: Endpoint {
        let endpoint = Restful(.get, "rows")
        struct Row: Decodable, Sendable, Equatable { let n: Int }
        typealias ReturnPayloadType = JSONLines<Row>
    }

    struct Bytes: Endpoint {
        let endpoint = Restful(.get, "bytes")
        typealias ReturnPayloadType = ByteStream
    }

    func stubbed(_ configure: (StubTransport) -> Void) -> (APIServer, StubTransport) {
        let stubs = StubTransport()
        configure(stubs)
        return (APIServer(origin: URL(string: "https://api.example.com")!, transport: stubs), stubs)
    }

    @Test func `stubbed events stream in order and [DONE] ends them`() async throws {
        let (server, _) = stubbed {
            $0.on(Chat.self, .events([
                ServerSentEvent(data: #"{"text":"Hel"}"#),
                ServerSentEvent(type: "delta", data: #"{"text":"lo"}"#, id: "2"),
                ServerSentEvent(data: "[DONE]"),
                ServerSentEvent(data: #"{"text":"never"}"#),
            ], interval: 0.001))
        }
        var events: [ServerSentEvent<Delta>] = []
        for try await event in try await Chat(prompt: "hi").call(on: server) { events.append(event) }
        #expect(events == [
            ServerSentEvent(data: Delta(text: "Hel")),
            ServerSentEvent(type: "delta", data: Delta(text: "lo"), id: "2"),
        ])
    }

    @Test func `the terminal data is configurable`() async throws {
        struct Feed: Endpoint {
            let endpoint = Restful(.get, "feed")
            typealias ReturnPayloadType = ServerSentEvents<String>
            static var streaming: StreamingOptions { StreamingOptions(terminalData: ["bye"]) }
        }
        let (server, _) = stubbed {
            $0.on(Feed.self, .events(["a", "[DONE]", "bye", "c"].map { ServerSentEvent(data: $0) }))
        }
        var data: [String] = []
        for try await event in try await Feed().call(on: server) { data.append(event.data) }
        #expect(data == ["a", "[DONE]"])
    }

    @Test func `each event reaches the loop before the next one is sent`() async throws {
        let (chunks, feed) = AsyncStream<Data>.makeStream()
        let transport = StreamingTransport(chunks: chunks)
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport)
        var iterator = try await Chat(prompt: "hi").call(on: server).makeAsyncIterator()
        feed.yield(Data(#"data: {"text":"one"}"#.utf8))
        feed.yield(Data("\n\n".utf8))
        // The second event has not been sent: if the call waited for the whole body, this would hang.
        #expect(try await iterator.next()?.data == Delta(text: "one"))
        feed.yield(Data("data: {\"text\":\"two\"}\n\n".utf8))
        #expect(try await iterator.next()?.data == Delta(text: "two"))
        feed.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test func `a transport that does not stream still serves streamed payloads, whole`() async throws {
        let transport = ClosureTransport { _ in (200, ["Content-Type": "application/jsonl"], "{\"n\":1}\n{\"n\":2}\n") }
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport)
        var rows: [Int] = []
        for try await row in try await Rows().call(on: server) { rows.append(row.n) }
        #expect(rows == [1, 2])
    }

    @Test func `a streamed answer read a second time fails naming the call, instead of ending empty`() async throws {
        let transport = ClosureTransport { _ in (200, ["Content-Type": "application/octet-stream"], "body") }
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport)
        let stream = try await Bytes().call(on: server)
        #expect(try await stream.collect(upTo: 100) == Data("body".utf8))
        let error = await #expect(throws: EndpointError.self) { _ = try await stream.collect(upTo: 100) }
        #expect(error?.kind == .streamError)
        #expect(error?.reason.contains("read a second time") == true, "\(error?.reason ?? "")")
        #expect(error?.operationID == "StreamedPayloadTests.Bytes")
    }

    @Test func `JSON Lines split anywhere across chunks decode the same`() async throws {
        let body = Data("{\"n\":1}\r\n\n{\"n\":22}\n{\"n\":333}".utf8)
        for cut in 1..<body.count {
            let (server, _) = stubbed { $0.on(Rows.self, .chunks([body.prefix(cut), body.dropFirst(cut)])) }
            var rows: [Int] = []
            for try await row in try await Rows().call(on: server) { rows.append(row.n) }
            #expect(rows == [1, 22, 333], "cut at \(cut)")
        }
    }

    @Test func `a non-2xx answer throws before the stream, with its body`() async throws {
        let (server, _) = stubbed { $0.on(Chat.self, .json(#"{"error":"overloaded"}"#, status: 529)) }
        let error = await #expect(throws: EndpointError.self) { _ = try await Chat(prompt: "hi").call(on: server) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.statusCode == 529)
        #expect(error?.responseBody == Data(#"{"error":"overloaded"}"#.utf8))
    }

    @Test func `data that is not the payload fails naming the event`() async throws {
        let (server, _) = stubbed {
            $0.on(Chat.self, .events([ServerSentEvent(data: #"{"text":"ok"}"#), ServerSentEvent(data: #"{"txt":1}"#, id: "e2")]))
        }
        var count = 0
        let error = await #expect(throws: EndpointError.self) {
            for try await _ in try await Chat(prompt: "hi").call(on: server) { count += 1 }
        }
        #expect(count == 1)
        #expect(error?.kind == .decodingFailed)
        #expect(error?.description.contains(#"event 2 of the stream (id "e2")"#) == true)
    }

    @Test func `an event larger than the response size limit fails the stream`() async throws {
        struct Small: Endpoint {
            let endpoint = Restful(.get, "small")
            typealias ReturnPayloadType = ServerSentEvents<String>
            static var maximumResponseSize: Int? { 100 }
        }
        let (server, _) = stubbed {
            $0.on(Small.self, .events([ServerSentEvent(data: "short"), ServerSentEvent(data: String(repeating: "x", count: 500))]))
        }
        var data: [String] = []
        let error = await #expect(throws: EndpointError.self) {
            for try await event in try await Small().call(on: server) { data.append(event.data) }
        }
        #expect(data == ["short"])
        #expect(error?.kind == .responseTooLarge)
    }

    @Test func `middlewares see the head of a streamed answer, and HTTPCache keeps nothing of it`() async throws {
        let lines = Shared<[String]>([])
        let stubs = StubTransport()
        stubs.on(Bytes.self, .chunks([Data("abc".utf8), Data("def".utf8)], headers: ["ETag": "\"v1\""]))
        var server = APIServer(origin: URL(string: "https://api.example.com")!, transport: stubs)
        let cache = HTTPCache()
        server.middlewares = [RequestLogger(sink: { line in lines.withLock { $0.append(line) } }), cache]
        for _ in 0..<2 {
            var body = Data()
            for try await chunk in try await Bytes().call(on: server) { body.append(chunk) }
            #expect(body == Data("abcdef".utf8))
        }
        #expect(cache.count == 0)
        #expect(stubs.requests.allSatisfy { $0.value(forHTTPHeaderField: "If-None-Match") == nil })
        #expect(lines.withLock { $0 }.filter { $0.hasPrefix("<--") }.allSatisfy { $0.hasSuffix("body streaming)") })
    }

    @Test func `reconnection sends Last-Event-ID and continues the loop`() async throws {
        struct Live: Endpoint {
            let endpoint = Restful(.get, "live")
            typealias ReturnPayloadType = ServerSentEvents<String>
            static var streaming: StreamingOptions {
                StreamingOptions(reconnection: Reconnection(maximumAttempts: 2, initialDelay: 0.001, maximumDelay: 0.01))
            }
        }
        let (server, stubs) = stubbed {
            $0.on(Live.self,
                .events([ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "2")]),  // then the server closes
                .failure(URLError(.cannotConnectToHost)),  // still away: try again
                .events([ServerSentEvent(data: "c", id: "3"), ServerSentEvent(data: "[DONE]")]))
        }
        var data: [String] = []
        for try await event in try await Live().call(on: server) { data.append(event.data) }
        #expect(data == ["a", "b", "c"])
        #expect(stubs.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "2", "2"])
        #expect(stubs.requests.allSatisfy { $0.value(forHTTPHeaderField: "Accept") == "text/event-stream" })
    }

    @Test func `reconnection gives up after its attempts, with the last error`() async throws {
        struct Live: Endpoint {
            let endpoint = Restful(.get, "live")
            typealias ReturnPayloadType = ServerSentEvents<String>
            static var streaming: StreamingOptions {
                StreamingOptions(reconnection: Reconnection(maximumAttempts: 2, initialDelay: 0.001, maximumDelay: 0.01))
            }
        }
        let (server, stubs) = stubbed {
            $0.on(Live.self, .events([ServerSentEvent(data: "a")]), .failure(URLError(.cannotConnectToHost)))
        }
        var data: [String] = []
        let error = await #expect(throws: EndpointError.self) {
            for try await event in try await Live().call(on: server) { data.append(event.data) }
        }
        #expect(data == ["a"])
        #expect(error?.kind == .transportFailed)
        #expect(stubs.requests.count == 3)  // the stream and two reconnections
    }

    @Test func `a 204 to a reconnection ends the stream`() async throws {
        struct Live: Endpoint {
            let endpoint = Restful(.get, "live")
            typealias ReturnPayloadType = ServerSentEvents<String>
            static var streaming: StreamingOptions { StreamingOptions(reconnection: Reconnection(initialDelay: 0.001)) }
        }
        let (server, stubs) = stubbed { $0.on(Live.self, .events([ServerSentEvent(data: "a")]), .status(204)) }
        var data: [String] = []
        for try await event in try await Live().call(on: server) { data.append(event.data) }
        #expect(data == ["a"])
        #expect(stubs.requests.count == 2)
    }

    @Test func `dropping a stream unread stops its producer`() async throws {
        let stopped = AsyncStream<Void>.makeStream()
        let transport = StreamingTransport(chunks: AsyncStream { continuation in
            continuation.onTermination = { _ in stopped.continuation.yield() }
        })
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport)
        _ = try await Bytes().call(on: server)  // dropped at once
        for await _ in stopped.stream { break }  // hangs (and hits the time limit) if nothing stops it
    }

    @Test func `a stubbed download is written to disk with progress`() async throws {
        let (server, _) = stubbed {
            $0.on(Bytes.self, .chunks([Data(repeating: 1, count: 10), Data(repeating: 2, count: 5)], headers: ["Content-Length": "15"]))
        }
        let reports = Shared<[TransferProgress]>([])
        let file = try await Bytes().download(on: server) { progress in reports.withLock { $0.append(progress) } }.payload
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Data(contentsOf: file) == Data(repeating: 1, count: 10) + Data(repeating: 2, count: 5))
        let completed = reports.withLock { $0 }.map(\.completed)
        #expect(completed.first == 0)
        #expect(completed.last == 15)
        #expect(completed == completed.sorted())
        #expect(reports.withLock { $0 }.last?.fractionCompleted == 1)
    }

    @Test func `upload progress from a transport that does not report it is the whole body once`() async throws {
        struct Post: Endpoint {
            let endpoint = Restful(.post, "post")
            let note: String
            typealias ReturnPayloadType = EmptyPayload
        }
        let (server, _) = stubbed { $0.on(Post.self, .status(204)) }
        let reports = Shared<[TransferProgress]>([])
        try await Post(note: "hello").call(on: server) { progress in reports.withLock { $0.append(progress) } }
        #expect(reports.withLock { $0 } == [TransferProgress(completed: 16, expected: 16)])  // {"note":"hello"}
    }
}

/// A transport whose one answer is a 200 streaming `chunks`.
private struct StreamingTransport: HTTPTransport {
    let chunks: AsyncStream<Data>

    func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        guard context.streamsResponse else { throw URLError(.unsupportedURL) }
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/event-stream"])!
        return (.stream(ByteStream(chunks)), response)
    }
}

/// A value behind a lock, for closures that report from any thread.
final class Shared<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `value`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
