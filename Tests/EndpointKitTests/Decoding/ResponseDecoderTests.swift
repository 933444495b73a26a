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

/// Reading answers: 2xx and a JSON content type are required; snake_case and ISO-8601 are read.
@Suite struct ResponseTests {
    struct CheerHistory: Endpoint {
        var endpoint: Restful { Restful(.get, "cheer_history") }
        let userId: Int
        struct ReturnPayloadType: Decodable, Sendable, Equatable {
            let history: [Cheer]
        }
        struct Cheer: Decodable, Sendable, Equatable {
            let creator: String
            let amount: Int
            let createdAt: Date
            let comments: [Comment]?
        }
        struct Comment: Decodable, Sendable, Equatable {
            let signature: String?
            let body: String?
        }
    }

    func call<E: Endpoint>(
        _ endpoint: E, status: Int = 200, contentType: String? = "application/json", body: String
    ) async throws -> E.ReturnPayloadType {
        let headers = contentType.map { ["Content-Type": $0] } ?? [:]
        return try await endpoint.call(on: .stub(RecordingTransport(status: status, headers: headers, body: body)))
    }

    @Test func `snake_case keys and ISO-8601 dates with or without fractions decode`() async throws {
        let body = """
            {"history": [
              {"creator": "ann", "amount": 5, "created_at": "2024-05-01T12:30:00Z",
               "comments": [{"signature": "A."}, {"body": "hi", "signature": null}]},
              {"creator": "bob", "amount": 7, "created_at": "2024-05-01T12:30:00.250Z"},
              {"creator": "cy", "amount": 9, "created_at": "2024-05-01T14:30:00+02:00"}
            ]}
            """
        let result = try await call(CheerHistory(userId: 1), body: body)
        let noon = Date(timeIntervalSince1970: 1_714_566_600)
        #expect(result == .init(history: [
            .init(creator: "ann", amount: 5, createdAt: noon,
                  comments: [.init(signature: "A.", body: nil), .init(signature: nil, body: "hi")]),
            .init(creator: "bob", amount: 7, createdAt: noon.addingTimeInterval(0.25), comments: nil),
            .init(creator: "cy", amount: 9, createdAt: noon, comments: nil),
        ]))
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON",
                      "application/problem+json", "application/vnd.github+json; charset=utf-8"])
    func `JSON content types are accepted`(type: String) async throws {
        let result = try await call(CheerHistory(userId: 1), contentType: type, body: #"{"history":[]}"#)
        #expect(result.history.isEmpty)
    }

    @Test(arguments: ["text/html", "text/plain; charset=utf-8", "application/xml", "application/jsonp", nil])
    func `other content types are rejected`(type: String?) async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await call(CheerHistory(userId: 1), contentType: type, body: #"{"history":[]}"#)
        }
        #expect(error.kind == .unexpectedContentType)
        #expect(error.statusCode == 200)
        #expect(error.responseBody == Data(#"{"history":[]}"#.utf8))
        #expect(error.description.contains(
            "the server answered 200 OK with \(type.map { "Content-Type \($0)" } ?? "no Content-Type"), but EndpointKitTests.ResponseTests.CheerHistory.ReturnPayloadType is decoded from JSON."))
    }

    @Test func `a type mismatch names the coding path`() async throws {
        let body = #"{"history":[{"creator":"a","amount":1,"created_at":"2024-05-01T12:30:00Z"},{"creator":"b","amount":"lots","created_at":"2024-05-01T12:30:00Z"}]}"#
        let error = try await #require(throws: EndpointError.self) {
            try await call(CheerHistory(userId: 1), body: body)
        }
        #expect(error.kind == .decodingFailed)
        guard case .typeMismatch(let type, let context) = try #require(error.decodingError) else {
            Issue.record("expected a type mismatch, got \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(CodingPathText.render(context.codingPath) == "history[1].amount")
        #expect(error.description.hasPrefix(
            "GET /api/v1/cheer_history: the server answered 200 OK, but the body could not be decoded as EndpointKitTests.ResponseTests.CheerHistory.ReturnPayloadType: expected Int at history[1].amount ("))
    }

    @Test func `a bad date names the value and the path`() async throws {
        let body = #"{"history":[{"creator":"a","amount":1,"created_at":"yesterday"}]}"#
        let error = try await #require(throws: EndpointError.self) {
            try await call(CheerHistory(userId: 1), body: body)
        }
        #expect(error.description.contains(#"invalid value at history[0].createdAt (Expected an RFC 3339 date such as 2024-05-01T12:30:00Z or 2024-05-01T14:30:00.5+02:00, found "yesterday".)"#))
    }

    @Test func `a null where a value is required is reported`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await call(CheerHistory(userId: 1), body: #"{"history":null}"#)
        }
        #expect(error.description.contains("expected Array<Cheer> but found null at history")
            || error.description.contains("but found null at history"))
    }

    @Test func `malformed JSON is reported as such`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await call(CheerHistory(userId: 1), body: #"{"history": [}"#)
        }
        #expect(error.kind == .decodingFailed)
        #expect(error.description.contains("the body is not valid JSON"))
    }

    @Test(arguments: [(200, ""), (204, ""), (205, "")])
    func `an empty body for a JSON payload is a clear error`(status: Int, body: String) async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await call(CheerHistory(userId: 1), status: status, body: body)
        }
        #expect(error.kind == .decodingFailed)
        #expect(error.description.contains("with no body, but EndpointKitTests.ResponseTests.CheerHistory.ReturnPayloadType is decoded from JSON; use EmptyPayload"))
    }

    struct Delete: Endpoint {
        var endpoint: Restful { Restful(.delete, "cheers/{id}") }
        let id: Int
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test(arguments: [(204, nil, ""), (200, "text/html", "<p>ok</p>"), (200, "application/json", #"{"deleted":true}"#), (202, nil, "")])
    func `EmptyPayload ignores whatever body arrives`(status: Int, type: String?, body: String) async throws {
        #expect(try await call(Delete(id: 1), status: status, contentType: type, body: body) == EmptyPayload())
    }

    @Test(arguments: [199, 300, 304, 400, 401, 404, 409, 429, 500, 502])
    func `a status outside 2xx is an error with the status and body`(status: Int) async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await call(Delete(id: 3), status: status, body: #"{"error":"x"}"#)
        }
        #expect(error.kind == .unacceptableStatus)
        #expect(error.statusCode == status)
        #expect(error.responseBody == Data(#"{"error":"x"}"#.utf8))
        #expect(error.request?.url?.absoluteString == "https://api.example.com/api/v1/cheers/3")
        #expect(error.description.hasPrefix("DELETE /api/v1/cheers/{id} (/api/v1/cheers/3): the server answered \(status)"))
    }

    @Test func `the status sentence uses the reason phrase`() {
        #expect(EndpointError.statusText(404) == "404 Not Found")
        #expect(EndpointError.statusText(500) == "500 Internal Server Error")
        #expect(EndpointError.statusText(422) == "422 Unprocessable Content")
        #expect(EndpointError.statusText(799) == "799")
    }
}
