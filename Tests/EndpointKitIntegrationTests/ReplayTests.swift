#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `ReplayTransport` against a real server: record from a loopback server of its own, stop it,
/// replay with no server.
@Suite struct ReplayTests {
    struct Note: Endpoint {
        let endpoint = Restful(.post, "notes/replay")
        let text: String
        let pinned: Bool
        typealias ReturnPayloadType = Echo
    }

    struct Missing: Endpoint {
        var endpoint: Restful { Restful(.get, "respond") }
        let status = 404
        let type = "application/json"
        let body = #"{"error":"no such note"}"#
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Upload: Endpoint {
        let endpoint = Restful(.post, "multipart", body: .multipart)
        let title: String
        let file: MultipartFile
        typealias ReturnPayloadType = ParsedMultipart
    }

    struct APIError: Decodable, Sendable, Equatable { let error: String }

    /// What the calls returned: the parts that must be the same when replayed.
    struct Outcome: Equatable {
        let method: String
        let target: String
        let body: String
        let authorization: String?
        let missingStatus: Int?
        let missingError: APIError?
        let uploadFields: [[String]]
        let uploadSizes: [Int]
    }

    func run(on server: APIServer) async throws -> Outcome {
        let echo = try await Note(text: "buy milk", pinned: true).call(on: server)
        let missing = await #expect(throws: EndpointError.self) { try await Missing().call(on: server) }
        let upload = try await Upload(title: "holiday", file: MultipartFile(Data(repeating: 7, count: 3000), filename: "a.bin")).call(on: server)
        return Outcome(
            method: echo.method, target: echo.target, body: echo.body, authorization: echo.headers["authorization"],
            missingStatus: missing?.statusCode, missingError: missing?.errorPayload(as: APIError.self),
            uploadFields: upload.fields, uploadSizes: upload.files.map(\.size))
    }

    func server(_ origin: URL, _ transport: any HTTPTransport) -> APIServer {
        APIServer(
            origin: origin, pathPrefix: "", transport: transport, errorPayloadType: APIError.self,
            middlewares: [HTTPBearerAuthorization(token: "loopback-secret-token")])
    }

    @Test func `exchanges recorded from a real server replay identically once it is stopped`() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let running = try await LoopbackServer.launch()
        let origin = running.server.origin

        let recorded = try await run(on: server(origin, ReplayTransport(directory: directory, mode: .record())))
        #expect(recorded.method == "POST")
        #expect(recorded.target == "/notes/replay")
        #expect(try jsonObject(recorded.body) == ["text": "buy milk", "pinned": true])
        #expect(recorded.authorization == "Bearer loopback-secret-token")
        #expect(recorded.missingStatus == 404)
        #expect(recorded.missingError == APIError(error: "no such note"))
        #expect(recorded.uploadFields == [["title", "holiday"]])
        #expect(recorded.uploadSizes == [3000])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 3)
        let written = try files.map { try String(decoding: Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self) }
        #expect(!written.joined().contains("loopback-secret-token"))

        await running.stop()
        let refused = await #expect(throws: EndpointError.self) {
            try await Note(text: "buy milk", pinned: true).call(on: server(origin, IntegrationTransport.shared))
        }
        #expect((refused?.underlyingError as? URLError)?.code == .cannotConnectToHost)

        let replayed = try await run(on: server(origin, ReplayTransport(directory: directory, mode: .replay)))
        // The same answers, except the echoed credential, which the recording redacted.
        #expect(replayed == Outcome(
            method: recorded.method, target: recorded.target, body: recorded.body, authorization: "<redacted>",
            missingStatus: recorded.missingStatus, missingError: recorded.missingError,
            uploadFields: recorded.uploadFields, uploadSizes: recorded.uploadSizes))

        let unrecorded = await #expect(throws: EndpointError.self) {
            try await Note(text: "buy bread", pinned: true).call(on: server(origin, ReplayTransport(directory: directory, mode: .replay)))
        }
        #expect(unrecorded?.kind == .notStubbed)
        #expect(unrecorded?.route == "POST /notes/replay")
    }
}
#endif
