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

/// `Data`, `String` and optional payloads.
@Suite struct PayloadKindTests {
    struct Fetch<ReturnPayloadType: Decodable & Sendable>: Endpoint {
        var endpoint: Restful { Restful(.get, "fetch") }
    }

    func call<Payload: Decodable & Sendable>(
        _ type: Payload.Type, status: Int = 200, contentType: String? = nil, body: Data
    ) async throws -> Payload {
        let transport = BytesTransport(status: status, contentType: contentType, body: body)
        return try await Fetch<Payload>().call(on: APIServer(origin: URL(string: "https://x.test")!, transport: transport))
    }

    @Test(arguments: [nil, "application/octet-stream", "image/png", "application/json"])
    func `Data payloads are the raw bytes, whatever the content type`(type: String?) async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A])
        #expect(try await call(Data.self, contentType: type, body: bytes) == bytes)
        #expect(try await call(Data.self, status: 204, contentType: type, body: Data()) == Data())
    }

    @Test(arguments: [
        ("text/plain", Data("héllo ✓".utf8), "héllo ✓"),
        ("text/plain; charset=utf-8", Data("héllo ✓".utf8), "héllo ✓"),
        ("text/plain; charset=\"ISO-8859-1\"", Data([0x68, 0xE9, 0x6C]), "hél"),
        ("text/html;charset=windows-1252", Data([0x80, 0x20, 0x31]), "€ 1"),
        ("text/plain; charset=utf-16le", Data([0x68, 0x00, 0xE9, 0x00]), "hé"),
    ])
    func `String payloads honour the charset`(type: String, body: Data, text: String) async throws {
        #expect(try await call(String.self, contentType: type, body: body) == text)
    }

    @Test func `a String body that is not valid in its charset is a clear error`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await call(String.self, contentType: "text/plain", body: Data([0xC3, 0x28]))
        }
        #expect(error.kind == .decodingFailed)
        #expect(error.description.contains("the server answered 200 OK, but the body is not valid utf-8 text."))
        #expect(error.responseBody == Data([0xC3, 0x28]))
    }

    struct Item: Decodable, Sendable, Equatable { let id: Int }

    @Test func `an optional payload is nil for an empty body or 204, and decoded otherwise`() async throws {
        #expect(try await call(Item?.self, status: 204, body: Data()) == nil)
        #expect(try await call(Item?.self, status: 200, contentType: "application/json", body: Data()) == nil)
        #expect(try await call(Item?.self, contentType: "application/json", body: Data(#"{"id":3}"#.utf8)) == Item(id: 3))
        #expect(try await call(Item?.self, contentType: "application/json", body: Data("null".utf8)) == nil)
    }

    struct BytesTransport: WholeRequestTransport {
        let status: Int
        let contentType: String?
        let body: Data
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let headers = contentType.map { ["Content-Type": $0] } ?? [:]
            return (body, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
        }
    }
}
