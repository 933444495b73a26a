@testable import EndpointKit
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
            == "https://api.example.com/api/v1/days/1970-01-02T00%3A00%3A00Z/E621E1F8-C36C-495A-93FC-0C247A3E6E5F/false")
    }
}
