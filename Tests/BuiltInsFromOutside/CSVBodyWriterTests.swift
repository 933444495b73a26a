import EndpointKitContract
import EndpointKitTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A body format compiled outside EndpointKit: sent, recorded and replayed, and described in an
/// OpenAPI document, with the path, query and header properties placed as for any format.
@Suite struct CSVBodyWriterTests {
    struct Row: Codable, Sendable {
        let sku: String
        let unitPrice: Int
    }

    struct ImportRows: Endpoint, Decodable {
        var endpoint: Restful { Restful(.post, "stores/{store}/imports", body: .csv) }
        let store: String
        @QueryItem var dryRun: Bool
        @HeaderField("Idempotency-Key") var key: String? = nil
        let rows: [Row]
        struct ReturnPayloadType: Codable, Sendable { let imported: Int }
    }

    /// Answers every request with `{"imported": 2}` and keeps what it was sent.
    final class Capture: HTTPTransport {
        private let sent = Locked<[(URLRequest, Data)]>([])
        var requests: [(URLRequest, Data)] { sent.withLock { $0 } }

        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            let bytes = try await body?.collect(upTo: 1 << 20) ?? Data()
            sent.withLock { $0.append((request, bytes)) }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            return (.data(Data(#"{"imported": 2}"#.utf8)), response)
        }
    }

    static let call = ImportRows(
        store: "north", dryRun: true, key: "k-1", rows: [Row(sku: "A-1", unitPrice: 250), Row(sku: "B, \"big\"", unitPrice: 1200)])
    static let csv = "sku,unit_price\r\nA-1,250\r\n\"B, \"\"big\"\"\",1200\r\n"

    @Test func `the body is the writer's bytes, the other properties where they belong`() async throws {
        let capture = Capture()
        let answer = try await Self.call.call(on: APIServer(origin: URL(string: "https://api.test")!, transport: capture))
        #expect(answer.imported == 2)
        let (request, body) = try #require(capture.requests.first)
        #expect(request.url?.absoluteString == "https://api.test/api/v1/stores/north/imports?dry_run=true")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/csv")
        #expect(request.value(forHTTPHeaderField: "Idempotency-Key") == "k-1")
        #expect(String(decoding: body, as: UTF8.self) == Self.csv)
    }

    @Test func `a recording keeps the CSV as text and replays it`() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let origin = URL(string: "https://api.test")!
        let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: Capture()))
        _ = try await Self.call.call(on: APIServer(origin: origin, transport: recorder))

        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        let file = try #require(files.first)
        let recording = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let request = try #require(recording["request"] as? [String: Any])
        #expect((request["body"] as? [String: Any])?["text"] as? String == Self.csv)

        let replay = APIServer(origin: origin, transport: ReplayTransport(directory: directory, mode: .replay))
        #expect(try await Self.call.call(on: replay).imported == 2)
        let miss = try await #require(throws: EndpointError.self) { try await ImportRows(store: "north", dryRun: true, key: "k-1", rows: []).call(on: replay) }
        #expect(miss.kind == .notStubbed)
    }

    @Test func `an OpenAPI document names the format's media type and schema`() throws {
        let document = try OpenAPIDocument(title: "Imports", version: "1", endpoints: [ImportRows.self])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let post = try #require(((json["paths"] as? [String: Any])?["/api/v1/stores/{store}/imports"] as? [String: Any])?["post"] as? [String: Any])
        let content = try #require((post["requestBody"] as? [String: Any])?["content"] as? [String: Any])
        #expect(Array(content.keys) == ["text/csv"])
        #expect((content["text/csv"] as? [String: Any])?["schema"] as? [String: String] == ["type": "string", "contentMediaType": "text/csv"])
        let parameters = try #require(post["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["name"] as? String } == ["store", "dry_run", "Idempotency-Key"])
    }

    @Test func `a writer's error is the call's, and nothing is sent`() async throws {
        struct TwoLists: Endpoint {
            var endpoint: Restful { Restful(.post, "imports", body: .csv) }
            let rows: [Row]
            let more: [Row]
            typealias ReturnPayloadType = EmptyPayload
        }
        let capture = Capture()
        let error = try await #require(throws: EndpointError.self) {
            try await TwoLists(rows: [], more: []).call(on: APIServer(origin: URL(string: "https://api.test")!, transport: capture))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.description == "POST /api/v1/imports: the body could not be encoded: a CSV body is one list of rows.")
        #expect(capture.requests.isEmpty)
    }
}
