// The server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS and
// watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A body on disk sent again after a 307 or 308 from a server that read all of it first: werkzeug's
/// `make_server` with its default handler (`Server/werkzeug_server.py`), which answers in HTTP/1.0
/// with `Content-Length: 0` and closes the connection. Over AsyncHTTPClient this failed with
/// `URLError -1017` (cannotParseResponse) where URLSession sent the file again: AsyncHTTPClient
/// stops an upload at the head of a 300-or-more answer, and failed the task whenever that head
/// overtook the upload's last step, a race the server wins a few times in a hundred. So each case
/// uploads 25 times: before the fix, 100 uploads never all passed.
@Suite struct WSGIRedirectTests {
    let origin: URL

    init() async throws {
        let port = try await onOwnThread { try PythonScriptServer.werkzeug.get().port }
        origin = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// What the server's `/inspect` route read.
    struct Inspected: Decodable, Sendable, Equatable {
        let key: String
        let size: Int
        let crc32: UInt32
        let contentType: String
        let filename: String?
    }

    struct MultipartUpload: Endpoint {
        var endpoint: Restful { Restful(.post, "read-then-redirect/\(status)/\(key)", body: .multipart) }
        let status: Int
        let key: String
        let file: MultipartFile
        typealias ReturnPayloadType = Inspected
        enum CodingKeys: String, CodingKey { case file }
    }

    /// A plain file body: what a middleware sends as `ByteStream(contentsOf:)`, uploaded from its
    /// file by both transports.
    struct FileUpload: Endpoint {
        var endpoint: Restful { Restful(.put, "read-then-redirect/\(status)/\(key)", body: .raw(contentType: "application/octet-stream")) }
        let status: Int
        let key: String
        @Body var placeholder = Data()
        typealias ReturnPayloadType = Inspected
        enum CodingKeys: String, CodingKey { case placeholder }
    }

    /// Replaces the request body with the file at `url`, streamed from disk.
    struct SendsFile: EndpointMiddleware {
        let url: URL
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            try await next(request, .stream(ByteStream(contentsOf: url)))
        }
    }

    /// 200 kB, more than one socket buffer and four of the transports' parts: the server is still
    /// reading when the client is still writing, and the answer comes only after the last byte.
    static let size = 200_000
    static let file: (url: URL, crc32: UInt32) = {
        let bytes = Data.pattern(count: size) { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ek-wsgi-\(UUID().uuidString).bin")
        try! bytes.write(to: url)
        return (url, CRC32.checksum(bytes))
    }()

    func server(sending file: URL? = nil) -> APIServer {
        var server = APIServer(origin: origin, pathPrefix: "", transport: IntegrationTransport.make())
        server.decoder = APIServer.makeDecoder()
        if let file { server.middlewares = [SendsFile(url: file)] }
        return server
    }

    static let rounds = 25

    @Test(arguments: [307, 308])
    func `a multipart file from disk is sent again, whole, after the server read it and redirected`(status: Int) async throws {
        let file = MultipartFile(contentsOf: Self.file.url, filename: "data.bin")
        for round in 0..<Self.rounds {
            let key = "multipart-\(status)-\(round)"
            let inspected = try await MultipartUpload(status: status, key: key, file: file).call(on: server())
            #expect(inspected == Inspected(key: key, size: Self.size, crc32: Self.file.crc32, contentType: "multipart/form-data", filename: "data.bin"))
        }
    }

    @Test(arguments: [307, 308])
    func `a plain file body from disk is sent again, whole, after the server read it and redirected`(status: Int) async throws {
        for round in 0..<Self.rounds {
            let key = "file-\(status)-\(round)"
            let inspected = try await FileUpload(status: status, key: key).call(on: server(sending: Self.file.url))
            #expect(inspected == Inspected(key: key, size: Self.size, crc32: Self.file.crc32, contentType: "application/octet-stream", filename: nil))
        }
    }
}
#endif
