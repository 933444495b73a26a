#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitTools
import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cache as an app might write it: it keeps every 2xx body that arrived whole, by URL, and never
/// asks the context anything.
private struct NaiveCache: EndpointMiddleware {
    let stored = Shared<[String: Data]>([:])
    let seen = Shared<[String]>([])

    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        let (answer, response) = try await next(request, body)
        switch answer {
        case .data(let bytes):
            seen.withLock { $0.append("data") }
            if (200..<300).contains(response.statusCode), let url = request.url {
                stored.withLock { $0[url.path] = bytes }
            }
        case .stream:
            seen.withLock { $0.append("stream") }
        }
        return (answer, response)
    }
}

/// An app's own credential: a session header, registered through the context.
private struct SessionHeader: EndpointMiddleware {
    let secret: String

    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        var signed = request
        signed.setValue(secret, forHTTPHeaderField: "X-Client-Proof")
        return try await next.withCredential(header: "X-Client-Proof")(signed, body)
    }
}

private struct Events: Endpoint {
    let endpoint = Restful(.get, "stream/sse/chat")
    typealias ReturnPayloadType = ServerSentEvents<String>
}

private struct Hop: Endpoint {
    var endpoint: Restful { Restful(.get, "redirect-away/302/echo/landed") }
    typealias ReturnPayloadType = Echo
}

/// Replaces the request body with what `replacement` makes of it.
private struct RewriteBody: EndpointMiddleware {
    let replacement: @Sendable (MessageBody?) async throws -> MessageBody?
    let seen = Shared<[String]>([])

    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        switch body {
        case .data(let bytes): seen.withLock { $0.append("data \(bytes.count)") }
        case .stream: seen.withLock { $0.append("stream \(body?.count.map(String.init) ?? "?")") }
        case nil: seen.withLock { $0.append("none") }
        }
        return try await next(request, try await replacement(body))
    }
}

/// Sets `httpBody` and passes the old body on: the mistake the chain refuses.
private struct SetsHTTPBodyOnly: EndpointMiddleware {
    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        request.httpBody = Data("changed".utf8)
        return try await next(request, body)
    }
}

/// Sends every request twice.
private struct SendsTwice: EndpointMiddleware {
    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        _ = try await next(request, body)
        return try await next(request, body)
    }
}

/// Answers from memory, as a cache would: bytes for a call that streams.
private struct AnswersWithBytes: EndpointMiddleware {
    let bytes: Data
    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        (.data(bytes), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: ["Content-Type": "text/event-stream"])!)
    }
}

/// Answers an ordinary call with a stream of its own, in small pieces.
private struct AnswersWithStream: EndpointMiddleware {
    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        let (answer, response) = try await next(request, body)
        let bytes = try await answer.collect(upTo: 1 << 20)
        let pieces = stride(from: 0, to: bytes.count, by: 7).map { bytes.subdata(in: $0..<min($0 + 7, bytes.count)) }
        return (.stream(ByteStream(AsyncStream { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        })), response)
    }
}

private struct PostNote: Endpoint {
    var endpoint: Restful { Restful(.post, "echo/note") }
    let text: String
    typealias ReturnPayloadType = Echo
}

private struct PostAttachment: Endpoint {
    var endpoint: Restful { Restful(.post, "echo/attachment", body: .multipart) }
    let file: MultipartFile
    typealias ReturnPayloadType = Echo
}

private struct Plain: Endpoint {
    var endpoint: Restful { Restful(.get, "echo/plain") }
    typealias ReturnPayloadType = Echo
}

@Suite struct UserMiddlewareTests {
    @Test func `a middleware of the app's own sees a stream as a stream and caches no empty body`() async throws {
        let loopback = try await LoopbackServer.ready()
        let cache = NaiveCache()
        var server = loopback.server()
        server.middlewares = [cache]
        var texts: [String] = []
        for try await event in try await Events().call(on: server) { texts.append(event.data) }
        #expect(!texts.isEmpty)
        _ = try await Plain().call(on: server)
        #expect(cache.seen.value == ["stream", "data"])
        #expect(Array(cache.stored.value.keys) == ["/echo/plain"])  // the stream's empty 200 is not stored
        #expect(cache.stored.value["/echo/plain"]?.isEmpty == false)
    }

    @Test func `a credential header of the app's own is stripped on a cross-origin redirect and redacted in logs`() async throws {
        let loopback = try await LoopbackServer.ready()
        let lines = Shared<[String]>([])
        var server = loopback.server()
        server.middlewares = [SessionHeader(secret: "s3ss10n-value"), RequestLogger(verbose: true) { line in lines.withLock { $0.append(line) } }]
        let echo = try await Hop().call(on: server)
        #expect(echo.path == "/echo/landed")
        #expect(echo.headers["x-client-proof"] == nil)   // not carried to the other origin
        let log = lines.value.joined(separator: "\n")
        #expect(log.contains("X-Client-Proof"))
        #expect(!log.contains("s3ss10n-value"), "\(log)")
        // Within the origin it is sent as usual.
        #expect(try await Plain().call(on: server).headers["x-client-proof"] == "s3ss10n-value")
    }

    @Test func `a middleware sees the request body as bytes and sends other bytes by passing them on`() async throws {
        var server = try await LoopbackServer.ready().server()
        let rewrite = RewriteBody { body in
            guard case .data(let bytes) = body else { return body }
            return .data(Data(String(decoding: bytes, as: UTF8.self).uppercased().utf8))
        }
        server.middlewares = [rewrite]
        let echo = try await PostNote(text: "quiet").call(on: server)
        #expect(echo.body == #"{"TEXT":"QUIET"}"#)
        #expect(rewrite.seen.value == ["data 16"])
    }

    @Test func `a multipart body from disk reaches a middleware as a stream of the file, read again for each attempt`() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).txt")
        try Data("line one\nline two\n".utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        var server = try await LoopbackServer.ready().server()
        let digests = Shared<[String]>([])
        let rewrite = RewriteBody { body in
            // A signer reads the whole body, then passes the same stream on.
            guard case .stream(let stream) = body else { return body }
            let bytes = try await stream.collect(upTo: 1 << 20)
            digests.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            return body
        }
        server.middlewares = [SendsTwice(), rewrite]
        let echo = try await PostAttachment(file: MultipartFile(contentsOf: source)).call(on: server)
        #expect(echo.body.contains("\r\n\r\nline one\nline two\n\r\n"))
        #expect(digests.value.count == 2)
        #expect(digests.value[0] == digests.value[1])
        #expect(digests.value[0] == echo.body)  // what the middleware read is what the server received
        #expect(rewrite.seen.value.count == 2)
        #expect(rewrite.seen.value[0] == "stream \(echo.body.utf8.count)")
    }

    @Test func `a stream a middleware makes is sent as the body, and refused when sent a second time`() async throws {
        var server = try await LoopbackServer.ready().server()
        let chunks = ["first,", "second,", "third"]
        let toStream = RewriteBody { _ in
            .stream(ByteStream(AsyncStream { continuation in
                for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
                continuation.finish()
            }))
        }
        server.middlewares = [toStream]
        #expect(try await PostNote(text: "ignored").call(on: server).body == "first,second,third")

        // The same one-pass stream, sent twice: the second attempt is refused, not sent empty.
        let once = ByteStream(Data("only once".utf8))
        server.middlewares = [SendsTwice(), RewriteBody { _ in .stream(once) }]
        let error = try await #require(throws: EndpointError.self) { try await PostNote(text: "x").call(on: server) }
        #expect(error.kind == .invalidRequest)
        #expect(error.reason.contains("already sent or read"), "\(error.reason)")
    }

    @Test func `a middleware that sets httpBody without passing the body on is refused before anything is sent`() async throws {
        let loopback = try await LoopbackServer.ready()
        var server = loopback.server()
        server.middlewares = [SetsHTTPBodyOnly()]
        let error = try await #require(throws: EndpointError.self) { try await PostNote(text: "x").call(on: server) }
        #expect(error.kind == .invalidRequest)
        #expect(error.reason.contains("httpBody"), "\(error.reason)")
        #expect(error.operationID == "PostNote")
    }

    @Test func `a call that streams takes bytes a middleware answers with, and an ordinary call takes a stream`() async throws {
        var server = try await LoopbackServer.ready().server()
        server.middlewares = [AnswersWithBytes(bytes: Data("data: cached\n\n".utf8))]
        var texts: [String] = []
        for try await event in try await Events().call(on: server) { texts.append(event.data) }
        #expect(texts == ["cached"])

        server.middlewares = [AnswersWithStream()]
        let echo = try await PostNote(text: "pieces").call(on: server)
        #expect(echo.body == #"{"text":"pieces"}"#)
        #expect(echo.path == "/echo/note")
    }
}
#endif
