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

/// Endpoints that name their server once, and swapping that server for one task.
@Suite struct ServerBindingTests {
    static let githubTransport = RecordingTransport(body: #"[{"name":"main"}]"#)
    static let stagingTransport = RecordingTransport(body: #"[{"name":"staging"}]"#)

    struct Branch: Decodable, Sendable, Equatable { let name: String }

    struct ListBranches: BoundEndpoint {
        var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
        let owner: String
        let repo: String
        typealias ReturnPayloadType = [Branch]
    }

    @Test func `a bound endpoint goes to its own server, not APIServer.default`() async throws {
        let other = RecordingTransport(body: "[]")
        let branches = try await APIServer.withDefault(.stub(other)) {
            try await ListBranches(owner: "apple", repo: "swift").response
        }
        #expect(branches == [Branch(name: "main")])
        #expect(other.requests.isEmpty)
        // The suite's tests run in parallel and share the bound server's transport: look for this
        // test's request among theirs.
        #expect(Self.githubTransport.requests.contains { $0.url?.absoluteString == "https://api.github.test/repos/apple/swift/branches" })
    }

    @Test func `withTransport sends every server's calls through the stub, keeping their URLs`() async throws {
        let stubs = StubTransport()
        stubs.on(ListBranches.self) { _ in [Branch(name: "stubbed")] }
        stubs.on(Unbound.self, .value(EmptyPayload()))
        let (branches, explicit) = try await APIServer.withTransport(stubs) {
            try await APIServer.withDefault(.stub(RecordingTransport())) {
                try await Unbound().call()
                return (try await ListBranches(owner: "a", repo: "b").response,
                        try await ListBranches(owner: "c", repo: "d").call(on: .githubTest))
            }
        }
        #expect(branches == [Branch(name: "stubbed")])
        #expect(explicit == [Branch(name: "stubbed")])
        let reached = Self.githubTransport.requests.compactMap(\.url?.path).filter { $0.hasPrefix("/repos/a/") || $0.hasPrefix("/repos/c/") }
        #expect(reached.isEmpty)  // nothing reached the bound server's own transport
        #expect(stubs.requests.map { $0.url?.absoluteString ?? "" } == [
            "https://api.example.com/api/v1/unbound",
            "https://api.github.test/repos/a/b/branches",
            "https://api.github.test/repos/c/d/branches",
        ])
    }

    @Test func `withReplacement sends one API's calls to another server, and only those`() async throws {
        let defaultTransport = RecordingTransport()
        let branches = try await APIServer.withDefault(.stub(defaultTransport)) {
            try await APIServer.withReplacement(.stagingTest, for: .githubTest) {
                try await Unbound().call()
                return try await ListBranches(owner: "apple", repo: "swift").response
            }
        }
        #expect(branches == [Branch(name: "staging")])
        #expect(Self.stagingTransport.requests.last?.url?.absoluteString == "https://staging.github.test/v3/repos/apple/swift/branches")
        #expect(defaultTransport.requests.count == 1)
    }

    @Test func `outside the override the bound server is used again`() async throws {
        let stubs = StubTransport()
        stubs.on(ListBranches.self) { _ in [] }
        _ = try await APIServer.withTransport(stubs) { try await ListBranches(owner: "x", repo: "y").response }
        let after = try await ListBranches(owner: "x", repo: "y").response
        #expect(after == [Branch(name: "main")])
    }
}

/// The family of endpoints bound to the test "GitHub".
protocol BoundEndpoint: Endpoint {}
extension BoundEndpoint {
    static var server: APIServer? { .githubTest }
}

struct Unbound: Endpoint {
    let endpoint = Restful(.post, "unbound")
    typealias ReturnPayloadType = EmptyPayload
}

extension APIServer {
    static let githubTest = APIServer.stub(ServerBindingTests.githubTransport, origin: "https://api.github.test", pathPrefix: "")
    static let stagingTest = APIServer.stub(ServerBindingTests.stagingTransport, origin: "https://staging.github.test", pathPrefix: "/v3")
}
