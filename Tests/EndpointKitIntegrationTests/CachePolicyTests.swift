#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitTesting
import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession keeps no answers of its own: HTTPCache is EndpointKit's one cache.
@Suite struct CachePolicyTests {
    @Test func `the default configuration has no URL cache and ignores local data`() {
        let configuration = URLSessionTransport.makeConfiguration()
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.httpMaximumConnectionsPerHost == URLSessionTransport.defaultMaximumConnectionsPerHost)
    }

    @Test func `every request EndpointKit builds ignores local cached data`() async throws {
        let loopback = try await LoopbackServer.ready()
        let response = try await Respond<String>(status: 200, type: "text/plain", body: "x").callWithMetadata(on: loopback.server())
        #expect(response.request.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test func `a GET the server says is fresh for an hour is sent again, every time`() async throws {
        let loopback = try await LoopbackServer.ready()
        let key = "fresh-\(UUID().uuidString)"
        let server = loopback.server()
        for _ in 0..<3 {
            let text = try await FreshForAnHour(key: key).call(on: server)
            #expect(text == key)
        }
        let seen = try await Seen(prefix: "/respond?key=\(key)").call(on: server)
        #expect(seen.paths.count == 3)
    }
}

/// `/respond` with `Cache-Control: max-age=3600` and `key` as the body.
private struct FreshForAnHour: Endpoint {
    var endpoint: Restful { Restful(.get, "respond") }
    let key: String
    var body: String { key }
    let header = "Cache-Control:max-age=3600"
    let type = "text/plain"
    typealias ReturnPayloadType = String

    enum CodingKeys: String, CodingKey { case key, body, header, type }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(body, forKey: .body)
        try container.encode(header, forKey: .header)
        try container.encode(type, forKey: .type)
    }
}
#endif
