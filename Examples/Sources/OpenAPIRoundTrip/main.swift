import DemoServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

// The proof that `Demo --openapi` describes the demo's endpoints as they are: a client that
// swift-openapi-generator made from that document (Generated/, from OpenAPI/openapi.yaml) calls
// every operation on the demo server and checks the decoded answers. With a folder argument it
// also saves each JSON body the server returned, for .ci/openapi-roundtrip to validate against the
// document's schemas with Python's jsonschema.
//
//     swift run --package-path Examples OpenAPIRoundTrip [PAYLOAD-FOLDER]

/// Saves every JSON response body as `<operationId>-<status>.json` in `folder`.
struct PayloadRecorder: ClientMiddleware {
    let folder: URL?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let folder, let responseBody, response.headerFields[.contentType]?.hasPrefix("application/json") == true else {
            return (response, responseBody)
        }
        let data = try await Data(collecting: responseBody, upTo: 1 << 20)
        try data.write(to: folder.appendingPathComponent("\(operationID)-\(response.status.code).json"))
        return (response, HTTPBody(data))
    }
}

/// RFC 3339 dates with or without fractional seconds, as EndpointKit's decoder reads them. The
/// generator's default transcoder refuses the demo server's `2024-05-02T08:15:30.250Z`, which
/// `format: date-time` allows.
struct RFC3339Dates: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        ISO8601DateFormatter().string(from: date)
    }

    func decode(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        if let date = formatter.date(from: text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(text) is not an RFC 3339 date"))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw Failure(description: message()) }
}

let folder = CommandLine.arguments.count > 1 ? URL(fileURLWithPath: CommandLine.arguments[1]) : nil
if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

try await DemoServer.withServer { origin in
    let client = Client(
        serverURL: origin, configuration: Configuration(dateTranscoder: RFC3339Dates()),
        transport: URLSessionTransport(), middlewares: [PayloadRecorder(folder: folder)])
    var calls = 0

    let purchase = try await client.purchaseCheer(body: .json(.init(identifier: "cheer.large", transaction_id: 1_000_000_007)))
    try check(try purchase.ok.body.json.balance == 200, "purchaseCheer: \(purchase)")
    calls += 1

    let refused = try await client.purchaseCheer(body: .json(.init(identifier: "", transaction_id: 1)))
    guard case .default(let statusCode, let failure) = refused else { throw Failure(description: "purchaseCheer with an empty identifier: \(refused)") }
    try check(statusCode == 422 && (try failure.body.json.error).contains("identifier"), "purchaseCheer error: \(refused)")

    let history = try await client.cheerHistory(query: .init(user_id: 42)).ok.body.json.history
    try check(history.count == 2 && history[0].creator == "user42" && history[0].comments?.count == 2, "cheerHistory: \(history)")
    calls += 1

    let branches = try await client.listBranches(path: .init(owner: "apple", repo: "swift"), query: .init(per_page: 5)).ok.body.json
    try check(branches.map(\.name) == ["main", "release/6.0", "release/6.1", "feature-0", "feature-1"], "listBranches: \(branches.map(\.name))")
    try check(branches[0].protected && branches[4].protection_url == nil, "listBranches protection: \(branches)")
    calls += 1

    let parts: [Operations.uploadPhoto.Input.Body.multipartFormPayload] = [
        .caption(.init(payload: .init(body: HTTPBody("Beach")))),
        .photo(.init(payload: .init(body: HTTPBody(Data(repeating: 0xFF, count: 2048))), filename: "beach.jpg")),
    ]
    let upload = try await client.uploadPhoto(
        path: .init(albumId: 3), headers: .init(X_hyphen_Request_hyphen_ID: "round-trip"), body: .multipartForm(.init(parts)))
    let uploaded = try upload.created.body.json
    try check(uploaded.album == "3" && uploaded.received_bytes > 2048, "uploadPhoto: \(uploaded)")
    calls += 1

    let chat = try await client.chatCompletion(body: .json(.init(model: "demo", messages: [.init(role: "user", content: "Hi")], stream: true)))
    let events = String(decoding: try await Data(collecting: try chat.ok.body.text_event_hyphen_stream, upTo: 1 << 20), as: UTF8.self)
    try check(events.hasPrefix("data: {\"choices\"") && events.hasSuffix("data: [DONE]\n\n"), "chatCompletion: \(events)")
    calls += 1

    let report = try await Data(collecting: try client.exportReport(path: .init(id: 7)).ok.body.binary, upTo: 8 << 20)
    try check(report.count == 4 << 20, "exportReport: \(report.count) bytes")
    calls += 1

    print("OpenAPIRoundTrip: the generated client called all \(calls) operations on \(origin) and read every answer")
}
