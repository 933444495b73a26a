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

/// URLs a server hands back (`Location`, `Link`, `Next-Page`) and calling an endpoint at one.
@Suite struct ResponseLinksTests {
    struct StartUpload: Endpoint {
        var endpoint: Restful { Restful(.post, "{+name}/blobs/uploads/", body: .empty, prefix: "/v2") }
        let name: String
        typealias ReturnPayloadType = EmptyPayload
    }

    struct FinishUpload: Endpoint {
        var endpoint: Restful { Restful(.put, "{+name}/blobs/uploads/", body: .raw(contentType: "application/octet-stream"), prefix: "/v2") }
        let name: String
        @QueryItem var digest: String
        @Body var blob: Data
        @HeaderField("X-Trace") var trace: String? = "t-1"
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `Location, Link and a named header resolve against the response URL`() async throws {
        let transport = ClosureTransport { _ in
            (202, ["Location": "/v2/library/ubuntu/blobs/uploads/u-1?_state=abc%3D",
                   "Link": #"<../next?x=1>; rel="next""#, "Next-Page": "https://other.test/records?_token=t"], "")
        }
        let started = try await StartUpload(name: "library/ubuntu").callWithMetadata(on: .stub(transport))
        #expect(started.location?.absoluteString == "https://api.example.com/v2/library/ubuntu/blobs/uploads/u-1?_state=abc%3D")
        #expect(started.links["next"]?.url.absoluteString == "https://api.example.com/v2/library/ubuntu/blobs/next?x=1")
        #expect(started.url(inHeader: "next-page")?.absoluteString == "https://other.test/records?_token=t")
        #expect(started.url(inHeader: "X-Missing") == nil)
    }

    @Test func `an endpoint called at a URL sends it as given, with its own method, body and headers`() async throws {
        let transport = ClosureTransport { _ in (201, [:], "") }
        let location = URL(string: "https://api.example.com/v2/library/ubuntu/blobs/uploads/u-1?_state=abc%3D")!
        try await FinishUpload(name: "library/ubuntu", digest: "sha256:1", blob: Data("blob".utf8))
            .call(at: location, on: .stub(transport))
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == location.absoluteString + "&digest=sha256%3A1")  // @QueryItem follows the URL's query
        #expect(request.httpMethod == "PUT")
        #expect(request.httpBody == Data("blob".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "t-1")
    }

    @Test func `only QueryItem properties are added to the URL's query`() async throws {
        struct Page: Endpoint {
            let endpoint = Restful(.get, "items")
            var perPage = 30
            @QueryItem var fields: [String] = ["a", "b"]
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = ClosureTransport { _ in (200, [:], "") }
        try await Page().call(at: URL(string: "https://api.example.com/items?per_page=30&page=2#top")!, on: .stub(transport))
        try await Page(fields: []).call(at: URL(string: "https://api.example.com/items")!, on: .stub(transport))
        try await Page().call(at: URL(string: "https://api.example.com/items")!, on: .stub(transport))
        #expect(transport.urls == [
            "https://api.example.com/items?per_page=30&page=2&fields=a&fields=b",
            "https://api.example.com/items",
            "https://api.example.com/items?fields=a&fields=b",
        ])
    }

    @Test func `a relative URL is resolved against the server's base URL`() async throws {
        let transport = ClosureTransport { _ in (201, [:], "") }
        for (relative, expected) in [
            ("/v2/x/blobs/uploads/u-2?_state=s", "https://api.example.com/v2/x/blobs/uploads/u-2?_state=s"),
            ("items?page=2", "https://api.example.com/v2/items?page=2"),  // below the endpoint's prefix
        ] {
            try await StartUpload(name: "x").call(at: URL(string: relative)!, on: .stub(transport))
            #expect(transport.urls.last == expected)
        }
    }

    @Test func `credentials stay on the server's origin`() async throws {
        let transport = ClosureTransport { _ in (200, [:], "") }
        var withHeaders = APIServer.stub(transport)
        withHeaders.headers["Authorization"] = "Bearer secret"
        withHeaders.headers["Cookie"] = "session=1"
        var withMiddleware = APIServer.stub(transport)
        withMiddleware.middlewares = [HTTPBearerAuthorization(token: "from-middleware")]
        for server in [withHeaders, withMiddleware] {
            for url in ["https://api.example.com/same", "https://evil.test/steal", "https://api.example.com:8443/port"] {
                try await StartUpload(name: "x").call(at: URL(string: url)!, on: server)
            }
        }
        let sent = transport.requests.map { ($0.value(forHTTPHeaderField: "Authorization"), $0.value(forHTTPHeaderField: "Cookie")) }
        #expect(sent.map(\.0) == ["Bearer secret", nil, nil, "Bearer from-middleware", nil, nil])
        #expect(sent.map(\.1) == ["session=1", nil, nil, nil, nil, nil])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "User-Agent") == APIServer.userAgent })
    }

    @Test(arguments: [
        ("file:///etc/passwd", "is not http or https"),
        ("ftp://api.example.com/x", "is not http or https"),
        ("http://api.example.com/x", "would downgrade the server's https to http"),
        ("javascript:alert(1)", "is not http or https"),
    ])
    func `URLs that are not http(s), or downgrade, are refused before sending`(url: String, reason: String) async throws {
        let transport = ClosureTransport { _ in (200, [:], "") }
        let error = await #expect(throws: EndpointError.self) {
            try await StartUpload(name: "x").call(at: URL(string: url)!, on: .stub(transport))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.reason.contains(reason) == true)
        #expect(transport.requests.isEmpty)
    }
}
