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

/// Downloads to disk with progress and resumption, and upload progress, against the loopback
/// server's `/stream/download/NAME` (byte i of the file is i % 251; ETag; Range and If-Range).
@Suite struct DownloadTests {
    let loopback: LoopbackServer
    let server: APIServer
    init() async throws {
        loopback = try await LoopbackServer.ready()
        server = loopback.server()
    }

    struct Export: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/download/{name}") }
        let name: String
        var size = 300_000
        var ignoreRange = 0
        var cutFirst = 0
        var version = 0
        var ignoreIfRange = 0
        var bare206 = 0
        var disposition: String?
        typealias ReturnPayloadType = Data
        enum CodingKeys: String, CodingKey {
            case name, size, version, disposition, ignoreRange = "ignore_range", cutFirst = "cut_first"
            case ignoreIfRange = "ignore_if_range", bare206 = "bare_206"
        }
    }

    struct Log: Endpoint {
        var endpoint: Restful { Restful(.get, "stream/download-log/{name}") }
        let name: String
        struct Request: Decodable, Sendable, Equatable {
            let range: String?
            let ifRange: String?
            enum CodingKeys: String, CodingKey { case range, ifRange = "if_range" }
        }
        struct ReturnPayloadType: Decodable, Sendable { let requests: [Request] }
        enum CodingKeys: String, CodingKey { case name }
    }

    static func expected(_ size: Int, version: Int = 0) -> Data {
        Data.pattern(count: size) { UInt8(($0 + version) % 251) }
    }

    func destination() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ek-download-\(UUID().uuidString).bin")
    }

    func leftovers(of destination: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: destination.deletingLastPathComponent().path)
            .filter { $0.contains(destination.lastPathComponent) }
    }

    /// Downloads `export`, which the server cuts after half its bytes (`cutFirst: 1`), and
    /// returns how much of it the partial file kept: what a resumption asks the rest of. Over
    /// URLSessionTransport, all 150,000 bytes sent before the cut; over AsyncHTTPClientTransport,
    /// up to that (see ``IntegrationTransport/keepsAllBeforeACut``).
    func cutDownload(_ export: Export, to target: URL) async throws -> Int {
        await #expect(throws: EndpointError.self) { try await export.download(to: target, on: server, resumable: true) }
        let kept = try Data(contentsOf: target.appendingPathExtension("partial")).count
        if IntegrationTransport.keepsAllBeforeACut {
            #expect(kept == 150_000)
        } else {
            #expect(kept > 0 && kept <= 150_000, "\(kept) bytes kept")
        }
        return kept
    }

    @Test func `a download is written to its destination with progress up to the whole size`() async throws {
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let reports = Shared<[TransferProgress]>([])
        let file = try await Export(name: UUID().uuidString).download(to: target, on: server) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(file.payload == target)
        #expect(file.statusCode == 200)
        #expect(file.value(forHeader: "ETag")?.hasSuffix("-300000\"") == true)
        #expect(try Data(contentsOf: target) == Self.expected(300_000))
        let seen = reports.withLock { $0 }
        #expect(seen.first == TransferProgress(completed: 0, expected: 300_000))
        #expect(seen.last == TransferProgress(completed: 300_000, expected: 300_000))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(try leftovers(of: target) == [target.lastPathComponent])
    }

    @Test func `without a destination the file is a new temporary one`() async throws {
        let file = try await Export(name: UUID().uuidString, size: 1000).download(on: server).payload
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Data(contentsOf: file) == Self.expected(1000))
    }

    @Test func `an interrupted download leaves nothing behind unless it is resumable`() async throws {
        let target = destination()
        await #expect(throws: EndpointError.self) {
            try await Export(name: UUID().uuidString, cutFirst: 1).download(to: target, on: server)
        }
        #expect(try leftovers(of: target).isEmpty)
    }

    @Test func `a 404 throws before anything is written`() async throws {
        struct Missing: Endpoint {
            let endpoint = Restful(.get, "respond?status=404&body=gone")
            typealias ReturnPayloadType = Data
        }
        let target = destination()
        let error = await #expect(throws: EndpointError.self) { try await Missing().download(to: target, on: server) }
        #expect(error?.statusCode == 404)
        #expect(try leftovers(of: target).isEmpty)
    }

    @Test func `a resumable download continues with Range and If-Range after an interruption`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let kept = try await cutDownload(Export(name: name, cutFirst: 1), to: target)
        let reports = Shared<[TransferProgress]>([])
        try await Export(name: name, cutFirst: 1).download(to: target, on: server, resumable: true) { progress in reports.withLock { $0.append(progress) } }
        #expect(try Data(contentsOf: target) == Self.expected(300_000))
        #expect(reports.withLock { $0.first } == TransferProgress(completed: Int64(kept), expected: 300_000))
        let log = try await Log(name: name).call(on: server).requests
        #expect(log == [
            Log.Request(range: nil, ifRange: nil),
            Log.Request(range: "bytes=\(kept)-", ifRange: "\"\(name)-300000\""),
        ])
        #expect(try leftovers(of: target) == [target.lastPathComponent])
    }

    @Test func `a server that ignores Range sends the whole file again, and it is written from the start`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let kept = try await cutDownload(Export(name: name, ignoreRange: 1, cutFirst: 1), to: target)
        try await Export(name: name, ignoreRange: 1, cutFirst: 1).download(to: target, on: server, resumable: true)
        #expect(try Data(contentsOf: target) == Self.expected(300_000))  // not 150,000 + 300,000 bytes
        #expect(try await Log(name: name).call(on: server).requests.map(\.range) == [nil, "bytes=\(kept)-"])
    }

    @Test func `a 416 for a partial file that is already whole finishes it, and one for a bigger file starts over`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        // A partial file as long as the whole: the server answers 416 with bytes */1000.
        try Self.expected(1000).write(to: target.appendingPathExtension("partial"))
        try Data("\"\(name)-1000\"".utf8).write(to: target.appendingPathExtension("partial").appendingPathExtension("validator"))
        try await Export(name: name, size: 1000).download(to: target, on: server, resumable: true)
        #expect(try Data(contentsOf: target) == Self.expected(1000))

        // A partial file longer than the file now is: 416 with another total, so start over.
        try Data(count: 5000).write(to: target.appendingPathExtension("partial"))
        try Data("\"\(name)-1000\"".utf8).write(to: target.appendingPathExtension("partial").appendingPathExtension("validator"))
        try await Export(name: name, size: 1000).download(to: target, on: server, resumable: true)
        #expect(try Data(contentsOf: target) == Self.expected(1000))
        #expect(try await Log(name: name).call(on: server).requests.map(\.range) == ["bytes=1000-", "bytes=5000-", nil])
        #expect(try leftovers(of: target) == [target.lastPathComponent])
    }

    @Test func `a changed file on the server (If-Range fails) is downloaded whole`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        try Data(count: 700).write(to: target.appendingPathExtension("partial"))
        try Data("\"an-old-version\"".utf8).write(to: target.appendingPathExtension("partial").appendingPathExtension("validator"))
        try await Export(name: name, size: 2000).download(to: target, on: server, resumable: true)
        #expect(try Data(contentsOf: target) == Self.expected(2000))
    }

    @Test func `a proxy that ignores If-Range cannot glue a new version onto an old partial file`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let kept = try await cutDownload(Export(name: name, cutFirst: 1, version: 1), to: target)
        // Version 2 now: the server answers the Range with 206 and version 2's bytes, If-Range or not.
        let download = try await Export(name: name, version: 2, ignoreIfRange: 1).download(to: target, on: server, resumable: true)
        #expect(try Data(contentsOf: target) == Self.expected(300_000, version: 2))  // all of version 2, nothing of 1
        #expect(download.statusCode == 200)
        #expect(try await Log(name: name).call(on: server).requests.map(\.range) == [nil, "bytes=\(kept)-", nil])
        #expect(try leftovers(of: target) == [target.lastPathComponent])
    }

    @Test func `a 206 without a validator but with another total starts over`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let kept = try await cutDownload(Export(name: name, cutFirst: 1, version: 1), to: target)
        let download = try await Export(name: name, size: 400_000, version: 3, ignoreIfRange: 1, bare206: 1)
            .download(to: target, on: server, resumable: true)
        #expect(try Data(contentsOf: target) == Self.expected(400_000, version: 3))
        #expect(download.statusCode == 200)
        #expect(try await Log(name: name).call(on: server).requests.map(\.range) == [nil, "bytes=\(kept)-", nil])
    }

    @Test func `a resumed download returns its 206, headers and final URL`() async throws {
        let name = UUID().uuidString
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let kept = try await cutDownload(Export(name: name, cutFirst: 1), to: target)
        let download = try await Export(name: name, disposition: #"attachment; filename="../../etc/passwd"; filename*=UTF-8''%E2%82%AC%20rates%2F..%2F.bashrc"#)
            .download(to: target, on: server, resumable: true)
        #expect(download.payload == target)
        #expect(download.statusCode == 206)
        #expect(download.value(forHeader: "Content-Range") == "bytes \(kept)-299999/300000")
        #expect(download.httpResponse.url?.path == "/stream/download/\(name)")
        #expect(download.suggestedFilename == "bashrc")
        #expect(try Data(contentsOf: target) == Self.expected(300_000))
    }

    @Test func `progress is coalesced for a user interface, with the first and final reports`() async throws {
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let reports = Shared<[TransferProgress]>([])
        let started = Date()
        try await Export(name: UUID().uuidString, size: 50 << 20).download(to: target, on: server) { progress in
            reports.withLock { $0.append(progress) }
        }
        let elapsed = Date().timeIntervalSince(started)
        let seen = reports.withLock { $0 }
        #expect(seen.first == TransferProgress(completed: 0, expected: 50 << 20))
        #expect(seen.last == TransferProgress(completed: 50 << 20, expected: 50 << 20))
        // One report per 50 ms at most, plus the first and the last; without coalescing, one per
        // chunk (about 800 for 50 MB on loopback, whatever the time).
        #expect(seen.count <= Int(elapsed / 0.05) + 2, "\(seen.count) reports in \(elapsed) s")
    }

    @Test func `upload progress is reported as a body from memory goes out`() async throws {
        struct Upload: Endpoint {
            let endpoint = Restful(.post, "stream/upload-size", body: .raw(contentType: "application/octet-stream"))
            @Body var data: Data = Data()
            struct ReturnPayloadType: Decodable, Sendable { let size: Int }
        }
        let reports = Shared<[TransferProgress]>([])
        let size = 3_000_000
        let reply = try await Upload(data: Data(count: size)).call(on: server) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(reply.size == size)
        let seen = reports.withLock { $0 }
        #expect(seen.last == TransferProgress(completed: Int64(size), expected: Int64(size)))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
    }

    @Test func `upload progress is reported for a multipart body streamed from a file`() async throws {
        struct Upload: Endpoint {
            let endpoint = Restful(.post, "stream/upload-size", body: .multipart)
            let file: MultipartFile
            struct ReturnPayloadType: Decodable, Sendable { let size: Int }
        }
        let source = destination()
        try Data(count: 2_000_000).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let reports = Shared<[TransferProgress]>([])
        let reply = try await Upload(file: MultipartFile(contentsOf: source)).call(on: server) { progress in
            reports.withLock { $0.append(progress) }
        }
        let seen = reports.withLock { $0 }
        #expect(reply.size > 2_000_000)
        #expect(seen.last?.completed == Int64(reply.size))
        #expect(seen.last?.fractionCompleted == 1)
    }
}
#endif
