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

/// `application/x-www-form-urlencoded` and raw bodies, byte for byte.
@Suite struct FormAndRawBodyTests {
    struct SignIn: Endpoint {
        let endpoint = Restful(.post, "oauth/token", body: .form)
        var grantType = "password"
        let username: String
        let password: String
        let scopes: [String]
        let rememberMe: Bool?
        @QueryItem var client: String
        @HeaderField("X-Device") var device: String? = nil
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a form body uses the query's names, values and percent-encoding`() async throws {
        let transport = RecordingTransport()
        let endpoint = SignIn(username: "ana+b@x.test", password: "p&ss=w rd/é", scopes: ["read", "write"], rememberMe: nil, client: "ios", device: "d1")
        _ = try await endpoint.call(on: .stub(transport))
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/oauth/token?client=ios")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.value(forHTTPHeaderField: "X-Device") == "d1")
        #expect(request.bodyText == "grant_type=password&username=ana%2Bb%40x.test&password=p%26ss%3Dw%20rd%2F%C3%A9&scopes=read&scopes=write")
    }

    @Test func `a form body replaces a Content-Type header from the server`() async throws {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.headers = ["content-type": "application/json"]
        _ = try await SignIn(username: "a", password: "b", scopes: [], rememberMe: true, client: "c").call(on: server)
        let request = try transport.request
        #expect(request.allHTTPHeaderFields?["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.allHTTPHeaderFields?["content-type"] == nil)
        #expect(request.bodyText == "grant_type=password&username=a&password=b&remember_me=true")
    }

    struct FormWithFile: Endpoint {
        let endpoint = Restful(.post, "x", body: .form)
        let file: MultipartFile
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a file in a form body is a clear error`() async throws {
        let transport = RecordingTransport()
        let error = try await #require(throws: EndpointError.self) {
            try await FormWithFile(file: MultipartFile(Data([1]), filename: "a.bin")).call(on: .stub(transport))
        }
        #expect(error.description == "POST /api/v1/x: the body could not be encoded: A MultipartFile can only be sent in a multipart body: declare the endpoint with Restful(…, body: .multipart). (at file).")
        #expect(transport.requests.isEmpty)
    }

    struct JSONWithFile: Endpoint {
        let endpoint = Restful(.post, "x")
        let file: MultipartFile
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a file in a JSON body is a clear error`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await JSONWithFile(file: MultipartFile(Data([1]), filename: "a.bin")).call(on: .stub(RecordingTransport()))
        }
        #expect(error.description == "POST /api/v1/x: the body could not be encoded: a MultipartFile can only be sent in a multipart body: declare the endpoint with Restful(…, body: .multipart) (at file).")
    }

    struct PutAvatar: Endpoint {
        var endpoint: Restful { Restful(.put, "users/{id}/avatar", body: .raw(contentType: contentType)) }
        let id: Int
        let png: Data
        var contentType = "image/png"
        typealias ReturnPayloadType = EmptyPayload

        enum CodingKeys: String, CodingKey { case id, png }
    }

    @Test func `a raw Data body is sent as it is with its content type`() async throws {
        let transport = RecordingTransport()
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A])
        _ = try await PutAvatar(id: 9, png: bytes).call(on: .stub(transport))
        let request = try transport.request
        #expect(request.httpMethod == "PUT")
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/users/9/avatar")
        #expect(request.httpBody == bytes)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "image/png")
    }

    struct PostNote: Endpoint {
        let endpoint = Restful(.post, "notes", body: .raw(contentType: "text/markdown; charset=utf-8"))
        let markdown: String
        @QueryItem var draft: Bool
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a raw String body is sent as UTF-8`() async throws {
        let transport = RecordingTransport()
        _ = try await PostNote(markdown: "# Café ☕️\n", draft: true).call(on: .stub(transport))
        let request = try transport.request
        #expect(request.url?.query == "draft=true")
        #expect(request.httpBody == Data("# Café ☕️\n".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/markdown; charset=utf-8")
    }

    struct TwoBodies: Endpoint {
        let endpoint = Restful(.post, "x", body: .raw(contentType: "text/plain"))
        let first: String
        let second: String
        typealias ReturnPayloadType = EmptyPayload
    }

    struct NumberBody: Endpoint {
        let endpoint = Restful(.post, "x", body: .raw(contentType: "text/plain"))
        let count: Int
        typealias ReturnPayloadType = EmptyPayload
    }

    struct BadContentType: Endpoint {
        let endpoint = Restful(.post, "x", body: .raw(contentType: "text/plain\r\nX-Admin: 1"))
        let text: String
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a raw body must be one Data or String property with a valid content type`() async throws {
        let transport = RecordingTransport()
        let two = try await #require(throws: EndpointError.self) { try await TwoBodies(first: "a", second: "b").call(on: .stub(transport)) }
        #expect(two.description.contains(#"a raw body is one property, but "second" is another; mark the others @QueryItem or @HeaderField, or name them in the path (at second)"#))
        let number = try await #require(throws: EndpointError.self) { try await NumberBody(count: 1).call(on: .stub(transport)) }
        #expect(number.description.contains("a raw body must be Data or String, not Int (at count)"))
        let injected = try await #require(throws: EndpointError.self) { try await BadContentType(text: "a").call(on: .stub(transport)) }
        #expect(injected.description == "POST /api/v1/x: the value of header Content-Type contains CR, which could inject headers.")
        #expect(transport.requests.isEmpty)
    }
}
