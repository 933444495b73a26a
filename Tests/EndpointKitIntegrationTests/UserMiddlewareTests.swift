#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitTools
import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cache as an app might write it: it keeps every 2xx body by URL, unless the context says the
/// body is streaming to the caller.
private struct NaiveCache: Middleware {
    let stored = Shared<[String: Data]>([:])
    let sawStream = Shared<[Bool]>([])

    func intercept(_ request: URLRequest, context: MiddlewareContext, next: Next) async throws -> (Data, HTTPURLResponse) {
        let (body, response) = try await next(request)
        sawStream.withLock { $0.append(context.streamsResponse) }
        if (200..<300).contains(response.statusCode), !context.streamsResponse, let url = request.url {
            stored.withLock { $0[url.path] = body }
        }
        return (body, response)
    }
}

/// An app's own credential: a session header, registered through the context.
private struct SessionHeader: Middleware {
    let secret: String

    func intercept(_ request: URLRequest, context: MiddlewareContext, next: Next) async throws -> (Data, HTTPURLResponse) {
        var signed = request
        signed.setValue(secret, forHTTPHeaderField: "X-Client-Proof")
        return try await context.withCredential(header: "X-Client-Proof") { try await next(signed) }
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

private struct Plain: Endpoint {
    var endpoint: Restful { Restful(.get, "echo/plain") }
    typealias ReturnPayloadType = Echo
}

@Suite struct UserMiddlewareTests {
    @Test func `a middleware of the app's own sees a stream as a stream and caches no empty body`() async throws {
        let loopback = try LoopbackServer.shared()
        let cache = NaiveCache()
        var server = loopback.server()
        server.middlewares = [cache]
        var texts: [String] = []
        for try await event in try await Events().call(on: server) { texts.append(event.data) }
        #expect(!texts.isEmpty)
        _ = try await Plain().call(on: server)
        #expect(cache.sawStream.value == [true, false])
        #expect(Array(cache.stored.value.keys) == ["/echo/plain"])  // the stream's empty 200 is not stored
        #expect(cache.stored.value["/echo/plain"]?.isEmpty == false)
    }

    @Test func `a credential header of the app's own is stripped on a cross-origin redirect and redacted in logs`() async throws {
        let loopback = try LoopbackServer.shared()
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
}
#endif
