@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Conditional requests: a 304 as a normal outcome, and the in-memory revalidating cache.
@Suite struct HTTPCacheTests {
    struct Repo: Decodable, Sendable, Equatable { let name: String; let stars: Int }

    struct GetRepo: Endpoint {
        var endpoint: Restful { Restful(.get, "repos/{name}") }
        let name: String
        typealias ReturnPayloadType = Repo
    }

    struct GetRepoIfChanged: Endpoint {
        var endpoint: Restful { Restful(.get, "repos/{name}") }
        let name: String
        @HeaderField("If-None-Match") var etag: String? = nil
        typealias ReturnPayloadType = Repo?
    }

    /// A server whose repositories have ETag `"v<stars>"`; it answers 304 to a matching `If-None-Match`.
    static func etagServer(stars: Locked<Int> = Locked(5), extraHeaders: [String: String] = [:]) -> ClosureTransport {
        ClosureTransport { request in
            let etag = "\"v\(stars.value)\""
            if request.value(forHTTPHeaderField: "If-None-Match") == etag {
                return (304, ["ETag": etag, "X-RateLimit-Remaining": "59"], "")
            }
            let name = request.url!.lastPathComponent
            return (200, ["ETag": etag, "X-RateLimit-Remaining": "58"].merging(extraHeaders) { $1 }, #"{"name":"\#(name)","stars":\#(stars.value)}"#)
        }
    }

    @Test func `an optional payload is nil on 304 Not Modified`() async throws {
        let transport = Self.etagServer()
        let server = APIServer.stub(transport)
        let first = try await GetRepoIfChanged(name: "swift").call(on: server)
        #expect(first == Repo(name: "swift", stars: 5))
        let unchanged = try await GetRepoIfChanged(name: "swift", etag: "\"v5\"").callWithMetadata(on: server)
        #expect(unchanged.payload == nil)
        #expect(unchanged.statusCode == 304)
    }

    @Test func `a non-optional payload on 304 is an error that says what to do`() async throws {
        struct Plain: Endpoint {
            var endpoint: Restful { Restful(.get, "repos/swift") }
            @HeaderField("If-None-Match") var etag: String? = "\"v5\""
            typealias ReturnPayloadType = Repo
        }
        let error = await #expect(throws: EndpointError.self) { try await Plain().call(on: .stub(Self.etagServer())) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.reason == "the server answered 304 Not Modified to a conditional request; declare the payload optional (nil means unchanged) or add an HTTPCache middleware")
    }

    @Test func `the cache revalidates with If-None-Match and turns a 304 into the stored payload`() async throws {
        let stars = Locked(5)
        let transport = Self.etagServer(stars: stars)
        var server = APIServer.stub(transport)
        let cache = HTTPCache()
        server.middlewares = [cache]
        let first = try await GetRepo(name: "swift").callWithMetadata(on: server)
        let second = try await GetRepo(name: "swift").callWithMetadata(on: server)
        #expect(first.payload == Repo(name: "swift", stars: 5))
        #expect(second.payload == first.payload)
        #expect(second.statusCode == 200)
        #expect(second.value(forHeader: "X-RateLimit-Remaining") == "59")  // the 304's headers update the stored ones
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, "\"v5\""])
        stars.value = 6
        let changed = try await GetRepo(name: "swift").call(on: server)
        #expect(changed == Repo(name: "swift", stars: 6))
        #expect(try await GetRepo(name: "swift").call(on: server) == changed)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, "\"v5\"", "\"v5\"", "\"v6\""])
        #expect(cache.count == 1)
    }

    @Test func `Last-Modified is revalidated with If-Modified-Since`() async throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let transport = ClosureTransport { request in
            request.value(forHTTPHeaderField: "If-Modified-Since") == date
                ? (304, [:], "")
                : (200, ["Last-Modified": date], #"{"name":"a","stars":1}"#)
        }
        var server = APIServer.stub(transport)
        server.middlewares = [HTTPCache()]
        _ = try await GetRepo(name: "a").call(on: server)
        #expect(try await GetRepo(name: "a").call(on: server) == Repo(name: "a", stars: 1))
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-Modified-Since") } == [nil, date])
    }

    @Test func `answers are kept per credential, never shared between users`() async throws {
        let transport = Self.etagServer()
        var server = APIServer.stub(transport)
        let tokens = Locked("alice")
        server.middlewares = [SetAuthorization(tokens: tokens), HTTPCache()]
        _ = try await GetRepo(name: "swift").call(on: server)
        tokens.value = "bob"
        _ = try await GetRepo(name: "swift").call(on: server)
        _ = try await GetRepo(name: "swift").call(on: server)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, nil, "\"v5\""])
    }

    struct SetAuthorization: EndpointMiddleware {
        let tokens: Locked<String>
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            var request = request
            request.setValue("Bearer \(tokens.value)", forHTTPHeaderField: "Authorization")
            return try await next(request, body)
        }
    }

    @Test func `no-store, answers without validators and bodies over the limit are not kept`() async throws {
        for (headers, maximumSize) in [(["Cache-Control": "private, no-store"], 1 << 20), ([:], 10)] {
            let transport = Self.etagServer(extraHeaders: headers)
            var server = APIServer.stub(transport)
            let cache = HTTPCache(maximumSize: maximumSize)
            server.middlewares = [cache]
            _ = try await GetRepo(name: "swift").call(on: server)
            _ = try await GetRepo(name: "swift").call(on: server)
            #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, nil])
            #expect(cache.count == 0)
        }
    }

    @Test func `the least recently used answers go first when the cache is full`() async throws {
        let transport = Self.etagServer()
        var server = APIServer.stub(transport)
        let cache = HTTPCache(maximumSize: 60)  // each body is 25–27 bytes: two fit
        server.middlewares = [cache]
        _ = try await GetRepo(name: "a").call(on: server)
        _ = try await GetRepo(name: "b").call(on: server)
        _ = try await GetRepo(name: "a").call(on: server)   // a is used again: b is now the oldest
        _ = try await GetRepo(name: "c").call(on: server)   // evicts b
        #expect(cache.count == 2)
        _ = try await GetRepo(name: "a").call(on: server)
        _ = try await GetRepo(name: "b").call(on: server)
        let conditional = transport.requests.map { ($0.url!.lastPathComponent, $0.value(forHTTPHeaderField: "If-None-Match") != nil) }
        #expect(conditional.map(\.1) == [false, false, true, false, true, false])
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func `a request with its own validators passes through untouched`() async throws {
        let transport = Self.etagServer()
        var server = APIServer.stub(transport)
        server.middlewares = [HTTPCache()]
        _ = try await GetRepoIfChanged(name: "swift").call(on: server)
        let answer = try await GetRepoIfChanged(name: "swift", etag: "\"v5\"").callWithMetadata(on: server)
        #expect(answer.payload == nil)
        #expect(answer.statusCode == 304)
    }
}
