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

/// The global default server. These are the only tests that touch it, serialized so that they do
/// not see each other's value; every other test uses `call(on:)` or `APIServer.withDefault`.
@Suite(.serialized) struct DefaultServerTests {
    struct Owner: Endpoint {
        var endpoint: Restful { Restful(.get, "users/{owner}/repos") }
        let owner: String?
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `calling without a default server is an error`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await Owner(owner: "me").response
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.description == "GET users/{owner}/repos: no server is configured: set APIServer.default at start-up, or pass a server with call(on:).")
    }

    @Test func `the global default is used, and a task-local one wins over it`() async throws {
        let global = RecordingTransport()
        let local = RecordingTransport()
        APIServer.default = .stub(global, origin: "https://global.example")
        defer { APIServer.default = nil }

        _ = try await Owner(owner: "a").response
        try await APIServer.withDefault(.stub(local, origin: "https://local.example")) {
            _ = try await Owner(owner: "b").call()
        }
        #expect(try global.request.url?.absoluteString == "https://global.example/api/v1/users/a/repos")
        #expect(try local.request.url?.absoluteString == "https://local.example/api/v1/users/b/repos")
    }
}
