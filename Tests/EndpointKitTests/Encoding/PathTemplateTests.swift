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

/// `{+name}` placeholders that span segments, and an endpoint's own path prefix.
@Suite struct PathExpansionTests {
    struct GetManifest: Endpoint {
        var endpoint: Restful { Restful(.get, "{+name}/manifests/{reference}", prefix: "/v2") }
        let name: String
        let reference: String
        typealias ReturnPayloadType = EmptyPayload
    }

    func url(of endpoint: some Endpoint) async throws -> String? {
        let transport = RecordingTransport()
        _ = try await endpoint.callWithMetadata(on: .stub(transport))
        return try transport.request.url?.absoluteString
    }

    @Test(arguments: [
        ("ubuntu", "https://api.example.com/v2/ubuntu/manifests/latest"),
        ("library/ubuntu", "https://api.example.com/v2/library/ubuntu/manifests/latest"),
        ("my org/a?b#c", "https://api.example.com/v2/my%20org/a%3Fb%23c/manifests/latest"),
        ("a/b%2Fc", "https://api.example.com/v2/a/b%252Fc/manifests/latest"),
        ("ünï/cødé", "https://api.example.com/v2/%C3%BCn%C3%AF/c%C3%B8d%C3%A9/manifests/latest"),
    ])
    func `a {+name} value keeps its slashes and escapes each segment`(name: String, expected: String) async throws {
        #expect(try await url(of: GetManifest(name: name, reference: "latest")) == expected)
    }

    @Test(arguments: ["../etc", "a/../b", "a/./b", "a/..", ".", "/a", "a/", "a//b", ""])
    func `a {+name} value with a dot or empty segment is refused before sending`(name: String) async throws {
        let transport = RecordingTransport()
        let error = await #expect(throws: EndpointError.self) {
            try await GetManifest(name: name, reference: "latest").call(on: .stub(transport))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.reason.hasPrefix("the path parameter {+name} is \"\(name)\"") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func `a plain {name} still escapes its slash`() async throws {
        struct Plain: Endpoint {
            var endpoint: Restful { Restful(.get, "repos/{name}") }
            let name: String
            typealias ReturnPayloadType = EmptyPayload
        }
        #expect(try await url(of: Plain(name: "a/b")) == "https://api.example.com/api/v1/repos/a%2Fb")
    }

    @Test func `an endpoint's own prefix replaces the server's`() async throws {
        struct Healthy: Endpoint {
            var endpoint: Restful { Restful(.get, "-/healthy", prefix: "") }
            typealias ReturnPayloadType = EmptyPayload
        }
        struct Versioned: Endpoint {
            var endpoint: Restful { Restful(.get, "status", version: 3, prefix: "internal/v{version}/") }
            typealias ReturnPayloadType = EmptyPayload
        }
        struct Usual: Endpoint {
            var endpoint: Restful { Restful(.get, "query") }
            typealias ReturnPayloadType = EmptyPayload
        }
        #expect(try await url(of: Healthy()) == "https://api.example.com/-/healthy")
        #expect(try await url(of: Versioned()) == "https://api.example.com/internal/v3/status")
        #expect(try await url(of: Usual()) == "https://api.example.com/api/v1/query")
    }

    @Test func `an empty {+} placeholder name is an invalid template`() async throws {
        struct Broken: Endpoint {
            var endpoint: Restful { Restful(.get, "a/{+}") }
            typealias ReturnPayloadType = EmptyPayload
        }
        let error = await #expect(throws: EndpointError.self) {
            try await Broken().call(on: .stub(RecordingTransport()))
        }
        #expect(error?.reason == #"the path template "a/{+}" has unbalanced braces or an empty {}"#)
    }
}
