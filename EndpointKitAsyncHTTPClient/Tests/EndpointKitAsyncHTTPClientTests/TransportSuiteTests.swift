import EndpointKit
import EndpointKitAsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The transports under test, each made once for the test process.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession, asyncHTTPClient

    static let urlSessionTransport = URLSessionTransport(maximumRedirects: 3)
    static let asyncHTTPClientTransport = AsyncHTTPClientTransport(redirectPolicy: RedirectPolicy(maximumRedirects: 3))

    var transport: any HTTPTransport {
        switch self {
        case .urlSession: Self.urlSessionTransport
        case .asyncHTTPClient: Self.asyncHTTPClientTransport
        }
    }

    var testDescription: String { rawValue }
}

struct Echo: Decodable, Sendable {
    let method: String
    let path: String
    let query: [String: [String]]
    let headers: [String: String]
    let body: String
}

/// EndpointKit's calls over each transport, against a real server on 127.0.0.1: the same outcome,
/// byte for byte, from both.
@Suite struct TransportSuiteTests {
    let loopback: Loopback

    init() async throws {
        loopback = try await Loopback.ready()
    }

    func server(_ kind: TransportKind, middlewares: [any EndpointMiddleware] = []) -> APIServer {
        var server = APIServer(origin: loopback.origin, pathPrefix: "", transport: kind.transport, decoder: JSONDecoder())
        server.middlewares = middlewares
        return server
    }

    struct Search: Endpoint {
        var endpoint: Restful { Restful(.get, "search/{kind}") }
        let kind: String
        let query: String
        typealias ReturnPayloadType = Echo
    }

    struct Create: Endpoint {
        let endpoint = Restful(.post, "notes")
        let title: String
        let tags: [String]
        typealias ReturnPayloadType = Echo
    }

    struct At<ReturnPayloadType: Decodable & Sendable>: Endpoint {
        var endpoint: Restful { Restful(method, path) }
        var method: RequestMethod = .get
        let path: String
        var note: String?
        enum CodingKeys: String, CodingKey { case note }
    }

    @Test(arguments: TransportKind.allCases)
    func `a GET and a JSON POST arrive as built and decode`(kind: TransportKind) async throws {
        let found = try await Search(kind: "a b", query: "ünï & co").call(on: server(kind))
        #expect(found.method == "GET" && found.path == "/search/a b")
        #expect(found.query == ["query": ["ünï & co"]])
        let created = try await Create(title: "Hi", tags: ["x", "y"]).call(on: server(kind))
        #expect(created.method == "POST")
        #expect(created.body == #"{"tags":["x","y"],"title":"Hi"}"# || created.body == #"{"title":"Hi","tags":["x","y"]}"#)
        #expect(created.headers["content-type"] == "application/json")
    }

    @Test(arguments: TransportKind.allCases)
    func `a 307 keeps the body; another origin gets no API key; a 303 becomes a GET`(kind: TransportKind) async throws {
        let server = server(kind, middlewares: [APIKeyAuthorization(header: "X-API-Key", value: "secret")])
        let kept = try await At<Echo>(method: .post, path: "redirect/307/landed", note: "n").call(on: server)
        #expect(kept.method == "POST" && kept.path == "/landed" && kept.body == #"{"note":"n"}"#)
        #expect(kept.headers["x-api-key"] == "secret")  // the same origin
        let away = try await At<Echo>(path: "redirect-away/302/elsewhere").call(on: server)
        #expect(away.path == "/elsewhere")
        #expect(away.headers["x-api-key"] == nil)
        let seeOther = try await At<Echo>(method: .post, path: "redirect/303/after", note: "n").call(on: server)
        #expect(seeOther.method == "GET" && seeOther.body == "")
    }

    @Test(arguments: TransportKind.allCases)
    func `a redirect to another scheme, or one too many, fails and sends nothing more`(kind: TransportKind) async throws {
        let refused = await #expect(throws: EndpointError.self) {
            try await At<Echo>(path: "x/redirect-to?status=302&location=file:///etc/passwd").call(on: server(kind))
        }
        #expect(refused?.kind == .redirectRefused)
        let tooMany = await #expect(throws: EndpointError.self) {
            try await At<Echo>(path: "redirect/302/redirect/302/redirect/302/redirect/302/end").call(on: server(kind))
        }
        #expect((tooMany?.underlyingError as? URLError)?.code == .httpTooManyRedirects)
    }

    @Test(arguments: TransportKind.allCases)
    func `a body past the size limit fails, announced or chunked`(kind: TransportKind) async throws {
        var server = server(kind)
        server.maximumResponseSize = 1 << 20
        for chunked in [0, 1] {
            let error = await #expect(throws: EndpointError.self) {
                try await At<Data>(path: "big?mb=3&chunked=\(chunked)").call(on: server)
            }
            #expect(error?.kind == .responseTooLarge)
        }
        #expect(try await At<Data>(path: "big?mb=1").call(on: server).count == 1 << 20)
    }

    /// A head no HTTP parser reads (`Content-Length: twelve`): the call fails as a transport
    /// failure, and the error names what arrived instead of only a number.
    @Test(arguments: TransportKind.allCases)
    func `an answer that cannot be parsed fails and says what arrived`(kind: TransportKind) async throws {
        let error = await #expect(throws: EndpointError.self) { try await At<Echo>(path: "malformed").call(on: server(kind)) }
        #expect(error?.kind == .transportFailed)
        switch kind {
        case .asyncHTTPClient:
            // Before: "the request failed: the request failed (URLError -1017)".
            #expect(error?.reason == "the request failed: the server's answer could not be read: AsyncHTTPClient stopped with invalid character in content-length header before an answer's head (URLError -1017)")
        case .urlSession:
            // libcurl's words, which Foundation on Linux gives as the description of URLError -1
            // (before: "the request failed: the request failed (URLError -1)"). Apple's URLSession
            // has codes and words of its own, not checked here.
            #if canImport(FoundationNetworking)
            #expect(error?.reason == "the request failed: the transport failed: Invalid Content-Length: value (URLError -1)")
            #endif
        }
    }

    @Test(arguments: TransportKind.allCases)
    func `a slow server times out at the call's timeout`(kind: TransportKind) async throws {
        var server = server(kind)
        server.timeout = 0.5
        let started = Date()
        let error = await #expect(throws: EndpointError.self) {
            try await At<Echo>(path: "slow?seconds=30").call(on: server)
        }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(Date().timeIntervalSince(started) < 20)  // not the server's 30 s
    }

    struct Endless: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/endless/{key}") }
        let key: String
        var every = 0.02
        struct Tick: Decodable, Sendable { let n: Int }
        typealias ReturnPayloadType = ServerSentEvents<Tick>
    }

    struct Closed: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/closed/{key}") }
        let key: String
        struct ReturnPayloadType: Decodable, Sendable { let closed: Bool }
    }

    @Test(arguments: TransportKind.allCases)
    func `events stream as they come, and a break closes the connection`(kind: TransportKind) async throws {
        let key = UUID().uuidString
        var seen: [Int] = []
        for try await event in try await Endless(key: key).call(on: server(kind)) {
            seen.append(event.data.n)
            if seen.count == 4 { break }
        }
        #expect(seen == [0, 1, 2, 3])
        var closed = false
        for _ in 0..<200 where !closed {  // up to 20 s: URLSession on Linux may take 11
            closed = try await Closed(key: key).call(on: server(kind)).closed
            if !closed { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        #expect(closed)
    }

    /// The call's timeout bounds the wait for a streamed answer's head, not the stream: over
    /// AsyncHTTPClient it cut every stream at the timeout (its deadline covers the whole body).
    @Test(arguments: TransportKind.allCases)
    func `a stream flows on past the call's timeout`(kind: TransportKind) async throws {
        var server = server(kind)
        server.timeout = 3
        var seen: [Int] = []
        for try await event in try await Endless(key: UUID().uuidString, every: 0.8).call(on: server) {
            seen.append(event.data.n)
            if seen.count == 8 { break }  // about 6.4 s: twice the timeout
        }
        #expect(seen == Array(0..<8))
    }

    @Test(arguments: TransportKind.allCases)
    func `a streamed body arrives whole, in order`(kind: TransportKind) async throws {
        struct Download: Endpoint {
            var endpoint: Restful { Restful(.get, "stream/download/{name}") }
            let name: String
            let size: Int
            typealias ReturnPayloadType = ByteStream
        }
        let size = 3_000_001
        var received = Data()
        for try await chunk in try await Download(name: UUID().uuidString, size: size).call(on: server(kind)) {
            received.append(chunk)
        }
        #expect(received.count == size)
        #expect(received.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
    }

    @Test(arguments: TransportKind.allCases)
    func `a multipart file is uploaded from disk, with progress to the end`(kind: TransportKind) async throws {
        struct Upload: Endpoint {
            let endpoint = Restful(.post, "stream/upload-size", body: .multipart)
            let file: MultipartFile
            struct ReturnPayloadType: Decodable, Sendable { let size: Int }
        }
        let source = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try Data(repeating: 7, count: 2_000_000).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let reports = Reports()
        let reply = try await Upload(file: MultipartFile(contentsOf: source)).call(on: server(kind)) { reports.add($0) }
        #expect(reply.size > 2_000_000)
        #expect(reports.last?.completed == Int64(reply.size))
    }

    /// A large body held in memory is written in parts, so progress moves as bytes leave: over
    /// AsyncHTTPClient it came as one report of the whole size at the end (a 50 MB upload showed
    /// 0, then 50,000,000). The transport's own reports, before EndpointKit's 50 ms throttle.
    @Test func `an in-memory upload reports progress as its parts leave`() async throws {
        struct Upload: Endpoint {
            let endpoint = Restful(.put, "stream/upload-size", body: .raw(contentType: "application/octet-stream"))
            let bytes: Data
            struct ReturnPayloadType: Decodable, Sendable { let size: Int }
        }
        let reports = Reports()
        let size = 5_000_000
        let origin = loopback.origin
        var request = URLRequest(url: origin.appendingPathComponent("stream/upload-size"))
        request.httpMethod = "PUT"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let context = TransportContext(input: Upload(bytes: Data()), timeout: 60, maximumResponseSize: 1 << 20,
                                       uploadProgress: { reports.add($0) })
        let (body, response) = try await TransportKind.asyncHTTPClientTransport.send(request, body: .data(Data(repeating: 3, count: size)), context: context)
        #expect(response.statusCode == 200)
        #expect(try await body.collect(upTo: 1 << 20) == Data(#"{"size": 5000000}"#.utf8))
        let completed = reports.values.map(\.completed)
        #expect(completed.last == Int64(size))
        #expect(completed == completed.sorted())
        #expect(completed.count >= size / (1 << 16), "\(completed.count) reports")
        #expect(reports.values.allSatisfy { $0.expected == Int64(size) })
    }

    @Test(arguments: TransportKind.allCases)
    func `a gzip body is decoded and counted after decoding; a cut body fails as a lost connection`(kind: TransportKind) async throws {
        var server = server(kind)
        #expect(try await At<Data>(path: "gzip-bomb?mb=2").call(on: server) == Data(count: 2 << 20))
        server.maximumResponseSize = 1 << 20
        let bomb = await #expect(throws: EndpointError.self) { try await At<Data>(path: "gzip-bomb?mb=8").call(on: server) }
        #expect(bomb?.kind == .responseTooLarge)
        let cut = await #expect(throws: EndpointError.self) { try await At<Data>(path: "cut?sent=10&declared=100").call(on: server) }
        #expect(cut?.kind == .transportFailed)
        #expect((cut?.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(describing: cut?.underlyingError))")
    }

    @Test(arguments: TransportKind.allCases)
    func `a Basic challenge is an ordinary 401, body included`(kind: TransportKind) async throws {
        let error = await #expect(throws: EndpointError.self) { try await At<Echo>(path: "basic-auth").call(on: server(kind)) }
        #expect(error?.statusCode == 401)
        #expect(error?.response?.value(forHTTPHeaderField: "WWW-Authenticate")?.hasPrefix("Basic") == true)
    }

    @Test(arguments: TransportKind.allCases)
    func `cancelling a call in flight ends it with CancellationError`(kind: TransportKind) async throws {
        let call = Task { try await At<Echo>(path: "slow?seconds=30").call(on: server(kind)) }
        try await Task.sleep(nanoseconds: 200_000_000)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test(arguments: TransportKind.allCases)
    func `a closed port fails as a transport failure that says it could not connect`(kind: TransportKind) async throws {
        let closed = APIServer(origin: URL(string: "http://127.0.0.1:9")!, transport: kind.transport)
        let error = await #expect(throws: EndpointError.self) { try await At<Echo>(path: "x").call(on: closed) }
        #expect(error?.kind == .transportFailed)
        #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
    }
}

/// What only AsyncHTTPClientTransport has: a client it owns.
@Suite struct AsyncHTTPClientTransportLifetimeTests {
    /// AsyncHTTPClient's own client stops a debug build when it is released still running; the
    /// transport shuts it down on its way out instead (this test crashed the process before).
    @Test func `a transport let go without shutdown() shuts its client down instead of stopping the process`() async throws {
        let loopback = try await Loopback.ready()
        for _ in 0..<3 {
            let transport = AsyncHTTPClientTransport()
            let server = APIServer(origin: loopback.origin, pathPrefix: "", transport: transport, decoder: JSONDecoder())
            #expect(try await TransportSuiteTests.At<Echo>(path: "echo").call(on: server).method == "GET")
        }
        let shutDown = AsyncHTTPClientTransport()
        try await shutDown.shutdown()  // and the deinit after it is quiet
    }
}

/// Progress reports, from any thread.
final class Reports: @unchecked Sendable {
    // `lock` guards `all`.
    private let lock = NSLock()
    private var all: [TransferProgress] = []

    func add(_ report: TransferProgress) {
        lock.lock()
        all.append(report)
        lock.unlock()
    }

    var last: TransferProgress? {
        lock.lock()
        defer { lock.unlock() }
        return all.last
    }

    var values: [TransferProgress] {
        lock.lock()
        defer { lock.unlock() }
        return all
    }
}
