// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
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

/// What the loopback server's werkzeug-parsed `/multipart` route read.
struct ParsedMultipart: Decodable, Sendable {
    struct File: Decodable, Sendable {
        let field: String
        let filename: String
        let contentType: String
        let size: Int
        let crc32: UInt32
        let base64: String?
    }
    let contentType: String
    let contentLength: String?
    let transferEncoding: String?
    let fields: [[String]]
    let files: [File]
}

/// Request bodies and response shapes against the real loopback server.
@Suite struct FormatTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    var server: APIServer {
        var server = loopback.server()
        server.decoder = APIServer.makeDecoder()
        return server
    }

    struct Upload: Endpoint {
        let endpoint = Restful(.post, "multipart", body: .multipart)
        let title: String
        let tags: [String]
        let count: Int
        let files: [MultipartFile]
        @HeaderField("X-Request-ID") var requestID: String? = nil
        typealias ReturnPayloadType = ParsedMultipart
    }

    @Test func `a standard multipart parser reads back every field and file byte for byte`() async throws {
        let binary = Data.pattern(count: 70_000) { UInt8(truncatingIfNeeded: $0 &* 7 &+ ($0 >> 8)) }
        let small = Data([0x00, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D, 0x0D, 0x0A, 0x80])  // NUL, CRLF, "--", CRLF
        let onDisk = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).bin")
        try binary.write(to: onDisk)
        defer { try? FileManager.default.removeItem(at: onDisk) }
        let names = [#"quote "d".bin"#, "naïve 日本 🎉.txt", "semi;colon = x.dat"]

        let parsed = try await Upload(
            title: "Ünïcödé & \"quotes\"\r\nnext line", tags: ["a", "b c"], count: 3,
            files: [
                MultipartFile(small, filename: names[0], contentType: "application/octet-stream"),
                MultipartFile(Data("héllo\n".utf8), filename: names[1], contentType: "text/plain; charset=utf-8"),
                MultipartFile(contentsOf: onDisk, filename: names[2], contentType: "application/x-binary"),
            ],
            requestID: "req-1"
        ).call(on: server)

        #expect(parsed.contentType.hasPrefix("multipart/form-data; boundary=EndpointKit-"))
        #expect(parsed.fields == [["title", "Ünïcödé & \"quotes\"\r\nnext line"], ["tags", "a"], ["tags", "b c"], ["count", "3"]])
        #expect(parsed.files.map(\.field) == ["files", "files", "files"])
        #expect(parsed.files.map(\.filename) == names)
        #expect(parsed.files.map(\.contentType) == ["application/octet-stream", "text/plain; charset=utf-8", "application/x-binary"])
        #expect(parsed.files[0].base64 == small.base64EncodedString())
        #expect(parsed.files[1].base64 == Data("héllo\n".utf8).base64EncodedString())
        #expect(parsed.files[2].size == binary.count)
        #expect(parsed.files[2].crc32 == CRC32.checksum(binary))
    }

    struct RedirectedUpload: Endpoint {
        var endpoint: Restful { Restful(.post, "redirect/\(status)/multipart", body: .multipart) }
        let status: Int
        let file: MultipartFile
        typealias ReturnPayloadType = ParsedMultipart
        enum CodingKeys: String, CodingKey { case file }
    }

    @Test(arguments: [307, 308])
    func `a file streamed from disk survives a 307 or 308 redirect`(status: Int) async throws {
        let bytes = Data.pattern(count: 300_000) { UInt8(truncatingIfNeeded: $0 &* 13) }
        let onDisk = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).bin")
        try bytes.write(to: onDisk)
        defer { try? FileManager.default.removeItem(at: onDisk) }
        let parsed = try await RedirectedUpload(status: status, file: MultipartFile(contentsOf: onDisk)).call(on: server)
        #expect(parsed.files.first?.size == bytes.count)
        #expect(parsed.files.first?.crc32 == CRC32.checksum(bytes))
    }

    struct EarlyRedirectedUpload: Endpoint {
        var endpoint: Restful { Restful(.post, "\(route)/\(status)/multipart", body: .multipart) }
        let route: String
        let status: Int
        let file: MultipartFile
        typealias ReturnPayloadType = ParsedMultipart
        enum CodingKeys: String, CodingKey { case file }
    }

    /// A server that answers the redirect before reading the body, then closes (`redirect-early`)
    /// or reads the rest of the body and drops it, keeping the connection (`redirect-draining`, as
    /// nginx's `return 307` does): the body is sent again, whole, to the new location.
    @Test(arguments: ["redirect-early", "redirect-draining"], [307, 308])
    func `a file streamed from disk is sent again after a redirect answered before the body was read`(route: String, status: Int) async throws {
        let (bytes, crc32) = Self.threeMegabytes
        let onDisk = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).bin")
        try bytes.write(to: onDisk)
        defer { try? FileManager.default.removeItem(at: onDisk) }
        let parsed = try await EarlyRedirectedUpload(route: route, status: status, file: MultipartFile(contentsOf: onDisk)).call(on: server)
        #expect(parsed.files.first?.size == bytes.count)
        #expect(parsed.files.first?.crc32 == crc32)
    }

    /// The four cases above share one body and its checksum, made once: made per case, a debug
    /// build spent seconds of Swift's few threads on them, which every other test waits for.
    static let threeMegabytes: (Data, UInt32) = {
        let bytes = Data.pattern(count: 3_000_000) { UInt8(truncatingIfNeeded: $0 &* 7) }
        return (bytes, CRC32.checksum(bytes))
    }()

    struct SignIn: Endpoint {
        let endpoint = Restful(.post, "echo/token", body: .form)
        let username: String
        let password: String
        let scopes: [String]
        @QueryItem var client: String
        typealias ReturnPayloadType = Echo
    }

    @Test func `a form body arrives with its content type and decodes to the same values`() async throws {
        let echo = try await SignIn(username: "ana+b@x.test", password: "p&ss=w rd/é%", scopes: ["r", "w"], client: "ios")
            .call(on: loopback.server())
        #expect(echo.target == "/echo/token?client=ios")
        #expect(echo.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(echo.body == "username=ana%2Bb%40x.test&password=p%26ss%3Dw%20rd%2F%C3%A9%25&scopes=r&scopes=w")
        let decoded = try #require(URLComponents(string: "?" + echo.body)?.queryItems)
        #expect(decoded.map { "\($0.name)=\($0.value ?? "")" } == ["username=ana+b@x.test", "password=p&ss=w rd/é%", "scopes=r", "scopes=w"])
    }

    struct EchoRaw<ReturnPayloadType: Decodable & Sendable>: Endpoint {
        var endpoint: Restful { Restful(.put, "echo-raw", body: .raw(contentType: contentType)) }
        let contentType: String
        let bytes: Data
        enum CodingKeys: String, CodingKey { case bytes }
    }

    @Test func `raw Data goes out and comes back byte for byte`() async throws {
        let bytes = Data((0...255).map(UInt8.init)) + Data(repeating: 0, count: 10)
        let echoed = try await EchoRaw<Data>(contentType: "application/octet-stream", bytes: bytes).call(on: server)
        #expect(echoed == bytes)
    }

    @Test func `a String payload is read in the response's charset`() async throws {
        let latin1 = try #require("Grüße, café".data(using: .isoLatin1))
        let text = try await EchoRaw<String>(contentType: "text/plain; charset=iso-8859-1", bytes: latin1).call(on: server)
        #expect(text == "Grüße, café")
    }

    struct Page: Endpoint {
        var endpoint: Restful { Restful(.get, "respond") }
        let status: Int
        let body: String
        let header: [String]
        typealias ReturnPayloadType = Balance
    }

    @Test func `response headers come with the payload`() async throws {
        let response = try await Page(status: 200, body: #"{"balance":3}"#, header: [
            #"ETag:"abc""#, "Link:<https://x.test/?page=2>; rel=\"next\"", "X-RateLimit-Remaining:59",
        ]).callWithMetadata(on: server)
        #expect(response.payload == Balance(balance: 3))
        #expect(response.statusCode == 200)
        #expect(response.value(forHeader: "etag") == #""abc""#)
        #expect(response.value(forHeader: "Link") == #"<https://x.test/?page=2>; rel="next""#)
        #expect(response.value(forHeader: "x-ratelimit-remaining") == "59")
    }

    struct APIError: Decodable, Sendable, Equatable {
        struct Detail: Decodable, Sendable, Equatable { let code: String; let message: String }
        let error: Detail
    }

    @Test(arguments: [404, 422, 500, 503])
    func `typed error payloads are decoded on 4xx and 5xx`(status: Int) async throws {
        var server = server
        server.errorPayloadType = APIError.self
        let body = #"{"error":{"code":"c\#(status)","message":"Nope"}}"#
        let error = try await #require(throws: EndpointError.self) {
            try await Respond<Balance>(status: status, type: "application/json", body: body).call(on: server)
        }
        #expect(error.statusCode == status)
        #expect(error.errorPayload(as: APIError.self) == APIError(error: .init(code: "c\(status)", message: "Nope")))
        #expect(error.responseBody == Data(body.utf8))
    }

    @Test func `an error body of another shape keeps its raw bytes`() async throws {
        var server = server
        server.errorPayloadType = APIError.self
        let error = try await #require(throws: EndpointError.self) {
            try await Respond<Balance>(status: 502, type: "text/html", body: "<h1>Bad gateway</h1>").call(on: server)
        }
        #expect(error.errorPayload == nil)
        #expect(error.responseBody == Data("<h1>Bad gateway</h1>".utf8))
    }

    @Test func `an error body that does not match says why`() async throws {
        var server = server
        server.errorPayloadType = APIError.self
        let body = #"{"error":{"code":"c1"}}"#
        let error = try await #require(throws: EndpointError.self) {
            try await Respond<Balance>(status: 422, type: "application/json", body: body).call(on: server)
        }
        #expect(error.errorPayload == nil)
        guard case .keyNotFound(let key, _) = try #require(error.errorPayloadDecodingError as? DecodingError) else {
            Issue.record("expected keyNotFound, got \(String(describing: error.errorPayloadDecodingError))")
            return
        }
        #expect(key.stringValue == "message")
        #expect(error.description.contains(#"The body is not the declared error payload: the key "message" is missing at error."#))
    }

    struct NamedUpload: Endpoint {
        let endpoint = Restful(.post, "multipart", body: .multipart)
        let files: [String: MultipartFile]
        let text: [String: String]
        typealias ReturnPayloadType = ParsedMultipart
    }

    /// Names the browser-style quoted form cannot carry exactly: werkzeug read `a\` as `None`,
    /// dropped a file named `a\`, and took `a%22b` for `a"b`.
    @Test func `every field name and file name arrives exactly as sent`() async throws {
        let names = [#"a\"#, #"a\b"#, #"a"b"#, "a%22b", "100%", "tab\there", "line\r\nbreak", "naïve 日本 🎉", "semi;colon = x"]
        var files: [String: MultipartFile] = [:]
        var text: [String: String] = [:]
        for (index, name) in names.enumerated() {
            files["file " + name] = MultipartFile(Data([UInt8(index)]), filename: name, contentType: "application/octet-stream")
            text["text " + name] = "value \(index)"
        }
        let parsed = try await NamedUpload(files: files, text: text).call(on: server)
        // A dictionary property's entries are named `property[key]`.
        #expect(parsed.fields.map { $0[0] + "=" + $0[1] }.sorted() == text.map { "text[\($0.key)]=\($0.value)" }.sorted())
        #expect(parsed.files.count == names.count)
        #expect(Set(parsed.files.map(\.filename)) == Set(names))
        for file in parsed.files {
            #expect(file.field == "files[file \(file.filename)]")
        }
    }
}

/// CRC-32 (IEEE), as Python's `zlib.crc32` computes it.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    /// Over raw buffers: a debug build iterating `Data` spends about a second on 3 MB.
    static func checksum(_ data: Data, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        table.withUnsafeBufferPointer { table in
            data.withUnsafeBytes { bytes in
                for byte in bytes {
                    value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
                }
            }
        }
        return ~value
    }
}

extension Data {
    /// `count` bytes, byte `i` being `byte(i)`, written in place: `Data((0..<count).map(byte))`
    /// takes seconds in a debug build, on one of the few threads every Swift task shares.
    static func pattern(count: Int, _ byte: (Int) -> UInt8) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            for index in buffer.indices { buffer[index] = byte(index) }
        }
        return data
    }
}
#endif
