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

@Suite struct EndpointErrorTests {
    struct Me: Endpoint {
        var endpoint: Restful { Restful(.get, "me") }
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `long bodies are cut to 512 bytes in the description, not in the error`() async throws {
        let body = String(repeating: "a", count: 600) + "END"
        let error = try await #require(throws: EndpointError.self) {
            try await Me().call(on: .stub(RecordingTransport(status: 500, body: body)))
        }
        #expect(error.responseBody?.count == 603)
        #expect(error.description.hasSuffix("Response body (603 bytes): " + String(repeating: "a", count: 512) + "… (91 more bytes)"))
        #expect(error.debugDescription == error.description)
        #expect(error.localizedDescription == "The server answered 500 Internal Server Error.")  // no body for end users
    }

    @Test func `a transport error becomes a transport failure naming the endpoint`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await Me().call(on: .stub(FailingTransport(error: URLError(.notConnectedToInternet))))
        }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(error.request?.url?.absoluteString == "https://api.example.com/api/v1/me")
        #expect(error.description.hasPrefix("GET /api/v1/me: the request failed: the device is offline"))
    }

    /// Apple platforms refuse plain `http://` (URLError -1022) unless Info.plist allows it.
    @Test func `an App Transport Security refusal names ATS and the Info.plist key that allows it`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await Me().call(on: .stub(FailingTransport(error: URLError(.appTransportSecurityRequiresSecureConnection))))
        }
        #expect(error.kind == .transportFailed)
        #expect(error.description.contains("App Transport Security refused a plain http:// connection"))
        #expect(error.description.contains("NSAllowsLocalNetworking"))
        #expect(error.description.contains("(URLError -1022)"))
    }

    @Test func `cancellation from the transport stays a CancellationError`() async throws {
        await #expect(throws: CancellationError.self) {
            try await Me().call(on: .stub(FailingTransport(error: CancellationError())))
        }
    }

    @Test func `an EndpointError thrown by a transport passes through unchanged`() async throws {
        let original = EndpointError(kind: .transportFailed, route: "custom", reason: "mock says no")
        let error = try await #require(throws: EndpointError.self) {
            try await Me().call(on: .stub(FailingTransport(error: original)))
        }
        #expect(error.description == "custom: mock says no.")
    }

    @Test(arguments: [
        (EndpointError(kind: .invalidRequest, route: "GET /me", reason: "x"), "The request could not be made."),
        (EndpointError(kind: .decodingFailed, route: "GET /me", reason: "x", responseBody: Data("secret".utf8)), "The server's answer could not be read."),
        (EndpointError(kind: .transportFailed, route: "GET /me", reason: "x", underlyingError: URLError(.timedOut)), "The request timed out."),
        (EndpointError(kind: .transportFailed, route: "GET /me", reason: "x", underlyingError: URLError(.cannotConnectToHost)), "The server could not be reached."),
        (EndpointError(kind: .authorizationFailed, route: "token refresh", reason: "x"), "The session has expired. Please sign in again."),
        (EndpointError(kind: .redirectRefused, route: "GET /me", reason: "x"), "The server redirected to an address that is not allowed."),
        (EndpointError(kind: .responseTooLarge, route: "GET /me", reason: "x"), "The server's answer was too large."),
    ])
    func `the text for end users is short and holds no request details`(error: EndpointError, text: String) {
        #expect(error.localizedDescription == text)
        #expect(!error.localizedDescription.contains("/me") && !error.localizedDescription.contains("secret"))
    }

    @Test func `kinds are distinct and printable`() {
        let kinds: [EndpointError.Kind] = [.invalidRequest, .unacceptableStatus, .unexpectedContentType, .decodingFailed, .transportFailed]
        #expect(Set(kinds).count == 5)
        #expect(kinds.map(\.description) == ["invalidRequest", "unacceptableStatus", "unexpectedContentType", "decodingFailed", "transportFailed"])
    }
}
