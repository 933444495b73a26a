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

/// `JSONEncoder` and `JSONDecoder` are `Sendable` only from iOS 16 / macOS 13, while EndpointKit
/// supports iOS 15 / macOS 12. Linux cannot show that compile error, so these tests check the shape
/// that avoids it: `APIServer` stores its coders in a box, not as its own properties.
@Suite struct ServerSendabilityTests {
    @Test func `APIServer stores no JSONEncoder or JSONDecoder of its own`() {
        let server = APIServer(origin: URL(string: "https://h.test")!)
        let stored = Mirror(reflecting: server).children.map { type(of: $0.value) }
        #expect(!stored.contains { $0 == JSONEncoder.self || $0 == JSONDecoder.self })
        #expect(stored.contains { $0 == JSONCoders.self })
    }

    @Test func `the coders read back as given, and replacing one keeps the other`() {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        var server = APIServer(origin: URL(string: "https://h.test")!, encoder: encoder, decoder: decoder)
        #expect(server.encoder === encoder && server.decoder === decoder)
        let copy = server
        let other = JSONEncoder()
        server.encoder = other
        #expect(server.encoder === other && server.decoder === decoder)
        #expect(copy.encoder === encoder)  // a copy of the server keeps what it had
    }

    @Test func `a changed encoder setting reaches the wire`() async throws {
        let transport = RecordingTransport()
        let server = APIServer.stub(transport)
        server.encoder.keyEncodingStrategy = .useDefaultKeys
        struct Rename: Endpoint {
            var endpoint: Restful { Restful(.post, "rename") }
            let newName: String
            typealias ReturnPayloadType = EmptyPayload
        }
        _ = try await Rename(newName: "b").call(on: server)
        #expect(try transport.request.bodyText == #"{"newName":"b"}"#)
    }
}
