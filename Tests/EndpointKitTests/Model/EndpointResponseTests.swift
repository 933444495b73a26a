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

/// `callWithMetadata()` and typed error payloads.
@Suite struct ResponseMetadataTests {
    struct Balance: Endpoint {
        let endpoint = Restful(.get, "balance")
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let balance: Int }
    }

    @Test func `callWithMetadata returns the payload with status and headers`() async throws {
        let transport = RecordingTransport(status: 201, headers: [
            "Content-Type": "application/json", "ETag": #""v7""#, "X-RateLimit-Remaining": "41",
        ], body: #"{"balance":5}"#)
        let response = try await Balance().callWithMetadata(on: .stub(transport))
        #expect(response.payload == .init(balance: 5))
        #expect(response.statusCode == 201)
        #expect(response.value(forHeader: "etag") == #""v7""#)
        #expect(response.value(forHeader: "x-ratelimit-remaining").flatMap(Int.init) == 41)
        #expect(response.headers["X-RateLimit-Remaining"] == "41")
        #expect(response.request.url?.absoluteString == "https://api.example.com/api/v1/balance")
    }

    struct APIError: Decodable, Sendable, Equatable {
        struct Detail: Decodable, Sendable, Equatable { let code: String; let message: String }
        let error: Detail
    }

    struct OAuthError: Decodable, Sendable, Equatable {
        let error: String
        let errorDescription: String
    }

    struct SignIn: Endpoint {
        static var errorPayloadType: (any (Decodable & Sendable).Type)? { OAuthError.self }
        let endpoint = Restful(.post, "token", body: .form)
        typealias ReturnPayloadType = EmptyPayload
    }

    func server(_ transport: RecordingTransport) -> APIServer {
        var server = APIServer.stub(transport)
        server.errorPayloadType = APIError.self
        return server
    }

    @Test func `a non-2xx body that matches the server's error type is decoded into the error`() async throws {
        let transport = RecordingTransport(status: 422, body: #"{"error":{"code":"too_big","message":"Amount too big"}}"#)
        let error = try await #require(throws: EndpointError.self) { try await Balance().call(on: server(transport)) }
        #expect(error.kind == .unacceptableStatus)
        #expect(error.statusCode == 422)
        #expect(error.errorPayload(as: APIError.self) == APIError(error: .init(code: "too_big", message: "Amount too big")))
        #expect(error.errorPayload(as: OAuthError.self) == nil)
        #expect(error.responseBody == Data(#"{"error":{"code":"too_big","message":"Amount too big"}}"#.utf8))
    }

    @Test(arguments: ["<html>Bad Gateway</html>", "", #"{"error":"flat"}"#])
    func `a body that does not match keeps only the raw bytes`(body: String) async throws {
        let transport = RecordingTransport(status: 502, headers: ["Content-Type": "text/html"], body: body)
        let error = try await #require(throws: EndpointError.self) { try await Balance().call(on: server(transport)) }
        #expect(error.errorPayload == nil)
        #expect(error.responseBody == Data(body.utf8))
        #expect(error.description.hasPrefix("GET /api/v1/balance: the server answered 502 Bad Gateway."))
    }

    @Test func `an endpoint's error type overrides the server's`() async throws {
        let transport = RecordingTransport(status: 400, body: #"{"error":"invalid_grant","error_description":"Wrong password"}"#)
        let error = try await #require(throws: EndpointError.self) { try await SignIn().call(on: server(transport)) }
        #expect(error.errorPayload(as: OAuthError.self) == OAuthError(error: "invalid_grant", errorDescription: "Wrong password"))
    }

    @Test func `without a declared error type the error has no payload`() async throws {
        let transport = RecordingTransport(status: 404, body: #"{"error":{"code":"missing","message":"No"}}"#)
        let error = try await #require(throws: EndpointError.self) { try await Balance().call(on: .stub(transport)) }
        #expect(error.errorPayload == nil)
    }
}
