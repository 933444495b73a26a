@testable import EndpointKit
import EndpointKitTestSupport
import EndpointKitContract
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every placement at once: a path placeholder by Swift name, a query item, a header, a styled
/// list and plain properties.
private struct FileReport: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "records/{recordId}/reports") }
    let recordId: String
    @QueryItem var page: Int = 1
    @HeaderField("X-Trace") var trace: String = "t-1"
    @EncodedArray(.commaSeparated) var fields: [String] = ["a", "b"]
    let includeDrafts: Bool
    typealias ReturnPayloadType = EmptyPayload
    enum CodingKeys: String, CodingKey {
        case recordId = "record_id", page, trace, fields, includeDrafts
    }
}

@Suite struct PropertyPlacementTests {
    @Test func `the document and the wire place every property by the same rule`() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let server = APIServer.stub(transport)
        try await FileReport(recordId: "r 1", includeDrafts: true).call(on: server)
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/records/r%201/reports?page=1&fields=a,b&include_drafts=true")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "t-1")

        let document = try OpenAPIDocument(title: "T", version: "1", servers: [], endpoints: [FileReport.self])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let paths = try #require(json["paths"] as? [String: [String: Any]])
        let operation = try #require(paths["/api/v1/records/{recordId}/reports"]?["get"] as? [String: Any])
        let parameters = try #require(operation["parameters"] as? [[String: Any]])
        let placed = Dictionary(uniqueKeysWithValues: parameters.map { ($0["name"] as? String ?? "?", $0["in"] as? String ?? "?") })
        #expect(placed == ["recordId": "path", "page": "query", "X-Trace": "header", "fields": "query", "include_drafts": "query"])
    }

    @Test func `a placeholder binds the Swift name first when the coding key differs`() throws {
        enum Keys: String, CodingKey { case recordId = "record_id" }
        #expect(try PropertyPlacement.of("x", forKey: Keys.recordId, pathNames: ["recordId"]) == .path("recordId"))
        #expect(try PropertyPlacement.of("x", forKey: Keys.recordId, pathNames: ["record_id"]) == .path("record_id"))
        #expect(try PropertyPlacement.of("x", forKey: Keys.recordId, pathNames: []) == .default)
        #expect(try PropertyPlacement.of(Restful(.get, "x"), forKey: Keys.recordId, pathNames: []) == .none)
    }
}
