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

/// Requests that cannot be built fail with `.invalidRequest` before anything is sent.
@Suite struct InvalidRequestTests {
    let transport = RecordingTransport()

    func expectInvalid(
        _ endpoint: some Endpoint, server: APIServer? = nil, mentioning fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let error = try await #require(throws: EndpointError.self, sourceLocation: sourceLocation) {
            try await endpoint.call(on: server ?? .stub(transport))
        }
        #expect(error.kind == .invalidRequest, sourceLocation: sourceLocation)
        #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        #expect(error.request == nil && error.response == nil, sourceLocation: sourceLocation)
        #expect(transport.requests.isEmpty, "nothing may be sent", sourceLocation: sourceLocation)
    }

    struct Owner: Endpoint {
        var endpoint: Restful { Restful(.get, "users/{owner}/repos") }
        let owner: String?
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a nil path parameter is an error`() async throws {
        try await expectInvalid(Owner(owner: nil), mentioning:
            #"GET /api/v1/users/{owner}/repos: the path placeholder {owner} has no value: Owner needs a non-nil property named "owner" (its Swift name or its coding key)."#)
    }

    @Test func `an empty path parameter is an error`() async throws {
        try await expectInvalid(Owner(owner: ""), mentioning: #"the path parameter "owner" is an empty string"#)
    }

    @Test func `a placeholder without a property is an error`() async throws {
        struct Typo: Endpoint {
            var endpoint: Restful { Restful(.delete, "users/{userId}") }
            let userID: Int
            typealias ReturnPayloadType = EmptyPayload
        }
        try await expectInvalid(Typo(userID: 1), mentioning: #"needs a non-nil property named "userId""#)
    }

    @Test func `a list bound to a placeholder is an error`() async throws {
        struct Many: Endpoint {
            var endpoint: Restful { Restful(.post, "tags/{tags}") }
            let tags: [String]
            typealias ReturnPayloadType = EmptyPayload
        }
        try await expectInvalid(Many(tags: ["a", "b"]), mentioning: "A path placeholder takes a single value")
    }

    @Test(arguments: ["users/{id", "users/id}", "users/{}", "a/{{id}}"])
    func `a malformed template is an error`(path: String) async throws {
        struct Malformed: Endpoint {
            let endpoint: Restful
            let id = 1
            typealias ReturnPayloadType = EmptyPayload
        }
        try await expectInvalid(Malformed(endpoint: Restful(.get, path)), mentioning: "has unbalanced braces or an empty {}")
    }

    @Test func `a non-finite number is an error naming its property`() async throws {
        struct Measure: Endpoint {
            var endpoint: Restful { Restful(.get, "measure") }
            let limits: [Double]
            typealias ReturnPayloadType = EmptyPayload
        }
        try await expectInvalid(Measure(limits: [1, .nan]), mentioning: "the parameters could not be encoded: nan cannot be sent as a parameter. (at limits[1])")
    }

    @Test func `a non-finite number in a body is an error`() async throws {
        struct Measure: Endpoint {
            var endpoint: Restful { Restful(.post, "measure") }
            let value: Double
            typealias ReturnPayloadType = EmptyPayload
        }
        try await expectInvalid(Measure(value: .infinity), mentioning: "POST /api/v1/measure: the body could not be encoded:")
    }
}
