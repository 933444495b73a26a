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

/// URL = origin + path prefix (with the version) + path (with placeholders filled) + query.
@Suite struct RequestURLTests {
    struct PurchaseCheer: Endpoint {
        let endpoint = Restful(.post, "purchase_cheer", version: 2)
        let identifier: String
        let transactionId: UInt64
        struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
    }

    struct ListBranches: Endpoint {
        var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
        let owner: String
        let repo: String
        let perPage: Int?
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test(arguments: [
        ("https://reiterate.app", "/api/v{version}", "https://reiterate.app/api/v2/purchase_cheer"),
        ("https://reiterate.app/", "/api/v{version}", "https://reiterate.app/api/v2/purchase_cheer"),
        ("https://host:8443/base", "/api/v{version}/", "https://host:8443/base/api/v2/purchase_cheer"),
        ("https://host/base/", "api/v{version}", "https://host/base/api/v2/purchase_cheer"),
        ("http://127.0.0.1:8080", "", "http://127.0.0.1:8080/purchase_cheer"),
        ("https://host", "/v{version}/rest", "https://host/v2/rest/purchase_cheer"),
    ])
    func `origin, prefix and path join with single slashes`(origin: String, prefix: String, expected: String) async throws {
        let transport = RecordingTransport(body: #"{"balance":1}"#)
        _ = try await PurchaseCheer(identifier: "a", transactionId: 1)
            .call(on: .stub(transport, origin: origin, pathPrefix: prefix))
        #expect(try transport.request.url?.absoluteString == expected)
    }

    @Test func `an unversioned GitHub-style endpoint fills its path and query`() async throws {
        let transport = RecordingTransport()
        _ = try await ListBranches(owner: "apple", repo: "swift", perPage: 30)
            .call(on: .stub(transport, origin: "https://api.github.com", pathPrefix: ""))
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://api.github.com/repos/apple/swift/branches?per_page=30")
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
    }

    @Test func `a leading slash in the path is not doubled`() async throws {
        struct Slashed: Endpoint {
            var endpoint: Restful { Restful(.get, "/status") }
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        _ = try await Slashed().call(on: .stub(transport))
        #expect(try transport.request.url?.absoluteString == "https://api.example.com/api/v1/status")
    }

    struct File: Endpoint {
        var endpoint: Restful { Restful(.get, "users/{userID}/files/{name}") }
        let userID: Int
        let name: String
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test(arguments: [
        ("report.pdf", "report.pdf"),
        ("a/b", "a%2Fb"),
        ("what?#frag", "what%3F%23frag"),
        ("100% sure", "100%25%20sure"),
        ("1+1=2&x", "1%2B1%3D2%26x"),
        ("naïve 日本", "na%C3%AFve%20%E6%97%A5%E6%9C%AC"),
        ("...", "..."),
        ("..a", "..a"),
        ("~user_name-1.0", "~user_name-1.0"),
    ])
    func `a path value becomes exactly one percent-encoded segment`(value: String, segment: String) async throws {
        let transport = RecordingTransport()
        _ = try await File(userID: 7, name: value).call(on: .stub(transport, pathPrefix: ""))
        let url = try #require(try transport.request.url)
        #expect(url.absoluteString == "https://api.example.com/users/7/files/\(segment)")
        #expect(url.pathComponents.count == 5)
    }

    @Test func `bound properties are not sent again in the query or body`() async throws {
        struct Rename: Endpoint {
            var endpoint: Restful { Restful(.patch, "files/{id}") }
            let id: String
            let newName: String
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        _ = try await Rename(id: "f1", newName: "b").call(on: .stub(transport))
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/files/f1")
        #expect(request.bodyText == #"{"new_name":"b"}"#)
    }

    @Test func `path values use the encoder's formats`() async throws {
        struct Day: Endpoint {
            var endpoint: Restful { Restful(.get, "days/{day}/{id}/{flag}") }
            let day: Date
            let id: UUID
            let flag: Bool
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        _ = try await Day(day: Date(timeIntervalSince1970: 86_400), id: id, flag: false).call(on: .stub(transport))
        #expect(try transport.request.url?.absoluteString
            == "https://api.example.com/api/v1/days/1970-01-02T00%3A00%3A00Z/e621e1f8-c36c-495a-93fc-0c247a3e6e5f/false")  // RFC 9562: lower case
    }

    struct Literal: Endpoint {
        let path: String
        var endpoint: Restful { Restful(.get, path) }
        typealias ReturnPayloadType = EmptyPayload
        // `path` is the template itself, not a parameter: keep it out of the query.
        func encode(to encoder: any Encoder) throws {}
    }

    /// iOS 15–16 and macOS 12–13 parse URLs by RFC 1738/1808 and return `nil` for any character
    /// outside RFC 3986; Linux's `URL(string:)` percent-encodes them silently. These checks use the
    /// strict RFC 3986 character set, so a URL that would fail on the older OSes fails here too.
    @Test(arguments: [
        ("files/my report (v2).txt", "files/my%20report%20(v2).txt"),
        ("caf\u{E9}/men\u{FC}", "caf%C3%A9/men%C3%BC"),
        ("search?q=a b&sort=stars", "search?q=a%20b&sort=stars"),
        ("100%/x%2Fy", "100%25/x%2Fy"),
        ("pipes|carets^\"quotes\"<tags>\\back`tick", "pipes%7Ccarets%5E%22quotes%22%3Ctags%3E%5Cback%60tick"),
        ("tag#1", "tag%231"),
        ("a[0]", "a%5B0%5D"),
        ("keep:@!$&'()*+,;=~._-", "keep:@!$&'()*+,;=~._-"),
    ])
    func `literal path text is percent-encoded where a URL may not hold it`(path: String, expected: String) async throws {
        let transport = RecordingTransport()
        _ = try await Literal(path: path).call(on: .stub(transport, pathPrefix: ""))
        let url = try #require(try transport.request.url).absoluteString
        #expect(url == "https://api.example.com/" + expected)
        // The text handed to `URL(string:)`, which Linux would otherwise escape for us.
        var rendered = ""
        #expect(try #require(PathTemplate(path)).render(with: [:], into: &rendered) == nil)
        #expect(rendered == expected)
        #expect(Self.isStrictRFC3986(expected))
    }

    @Test func `a path prefix with a space or Unicode is percent-encoded too`() async throws {
        let transport = RecordingTransport(body: #"{"balance":1}"#)
        _ = try await PurchaseCheer(identifier: "a", transactionId: 1)
            .call(on: .stub(transport, pathPrefix: "/my api/\u{E9}t\u{E9}/v{version}"))
        let url = try #require(try transport.request.url).absoluteString
        #expect(url == "https://api.example.com/my%20api/%C3%A9t%C3%A9/v2/purchase_cheer")
        #expect(ServerPlan.expandedPrefix("/my api/\u{E9}t\u{E9}/v{version}", version: 2) == "/my%20api/%C3%A9t%C3%A9/v2")
    }

    @Test func `an API key in the query keeps the URL valid`() async throws {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport, pathPrefix: "")
        server.middlewares = [APIKeyAuthorization(queryParameter: "api key", value: "k 1/\u{E9}&x")]
        _ = try await Literal(path: "my files").call(on: server)
        let url = try #require(try transport.request.url).absoluteString
        #expect(url == "https://api.example.com/my%20files?api%20key=k%201%2F%C3%A9%26x")
        #expect(Self.isStrictRFC3986(url))
    }

    /// Whether every character of `url` is one RFC 3986 allows in a URL: unreserved, reserved, or
    /// part of a `%XX` escape.
    static func isStrictRFC3986(_ url: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)
        let bytes = Array(url.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                      bytes[index + 1...index + 2].allSatisfy({ Set("0123456789ABCDEFabcdef".utf8).contains($0) })
                else { return false }
                index += 3
            } else {
                guard allowed.contains(bytes[index]) else { return false }
                index += 1
            }
        }
        return true
    }
}
