import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// README's samples that are not in Examples/, compiled and run here so they cannot drift.

private struct PurchaseCheer: Endpoint {
    let endpoint = Restful(.post, "purchase_cheer", version: 2)   // POST /api/v2/purchase_cheer
    let identifier: String
    let transactionId: UInt64
    struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
}

private struct DeleteCheer: Endpoint {
    var endpoint: Restful { Restful(.delete, "cheers/{id}") }
    let id: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct CannedTransport: HTTPTransport {
    var body = #"{"balance":200}"#
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil,
                                       headerFields: ["Content-Type": "application/json"])!
        return (Data(body.utf8), response)
    }
}

@Suite struct ReadmeTests {
    @Test func `purchase returns the new balance`() async throws {
        let server = Server(origin: URL(string: "https://test.invalid")!, transport: CannedTransport())
        let balance = try await Server.withDefault(server) {
            try await PurchaseCheer(identifier: "a", transactionId: 1).response.balance
        }
        #expect(balance == 200)
    }

    @Test func `the configuration sample builds the URL it describes`() async throws {
        let encoder = Server.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        let transport = RecordingTransport()
        let server = Server(
            origin: URL(string: "https://example.com/base")!,
            pathPrefix: "/api/v{version}",
            transport: transport,
            encoder: encoder,
            decoder: Server.makeDecoder(),
            headers: ["User-Agent": "Cheers/3.1", "Accept-Language": "en"]
        )
        try await Server.withDefault(server) {
            try await DeleteCheer(id: 7).call()
        }
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://example.com/base/api/v1/cheers/7")
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "en")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "Cheers/3.1")
    }
}
