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

/// `multipart/form-data` bodies, byte for byte.
@Suite struct MultipartTests {
    struct UploadPhoto: Endpoint {
        let endpoint = Restful(.post, "albums/{albumId}/photos", body: .multipart)
        let albumId: Int
        let caption: String
        let takenAt: Date?
        let photo: MultipartFile
        @HeaderField("X-Request-ID") var requestID: String? = nil
        typealias ReturnPayloadType = EmptyPayload
    }

    /// The boundary a request declares in its Content-Type.
    func boundary(of request: URLRequest) throws -> String {
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        let prefix = "multipart/form-data; boundary="
        try #require(contentType.hasPrefix(prefix))
        return String(contentType.dropFirst(prefix.count))
    }

    @Test func `text fields and in-memory files are written with exact part headers and CRLFs`() async throws {
        let transport = RecordingTransport()
        let photo = MultipartFile(Data([0xFF, 0xD8, 0x00, 0x0D, 0x0A]), filename: "beach.jpg", contentType: "image/jpeg")
        _ = try await UploadPhoto(albumId: 3, caption: "Sun & sea", takenAt: nil, photo: photo, requestID: "r1").call(on: .stub(transport))
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/albums/3/photos")
        #expect(request.value(forHTTPHeaderField: "X-Request-ID") == "r1")
        let b = try boundary(of: request)
        var expected = Data("--\(b)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nSun & sea\r\n".utf8)
        expected += Data("--\(b)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        expected += Data([0xFF, 0xD8, 0x00, 0x0D, 0x0A]) + Data("\r\n--\(b)--\r\n".utf8)
        #expect(request.httpBody == expected)
    }

    @Test func `the boundary is 128 random bits, new for every request`() async throws {
        let transport = RecordingTransport()
        let photo = MultipartFile(Data(), filename: "a")
        for _ in 0..<2 {
            _ = try await UploadPhoto(albumId: 1, caption: "c", takenAt: nil, photo: photo).call(on: .stub(transport))
        }
        let boundaries = try transport.requests.map(boundary(of:))
        #expect(boundaries[0] != boundaries[1])
        for boundary in boundaries {
            #expect(boundary.count == 44)
            #expect(boundary.hasPrefix("EndpointKit-"))
            #expect(boundary.dropFirst(12).allSatisfy { $0.isHexDigit })
        }
    }

    @Test func `a boundary found in the content is replaced by another`() throws {
        let candidates = Locked(["EndpointKit-clash", "EndpointKit-clash", "EndpointKit-free"])
        let body = try MultipartBody(
            fields: [("a", .text("x EndpointKit-clash y")), ("f", .file(MultipartFile(Data("EndpointKit-clash".utf8), filename: "f")))],
            makeBoundary: { candidates.withLock { $0.removeFirst() } })
        #expect(body.boundary == "EndpointKit-free")
        #expect(body.contentType == "multipart/form-data; boundary=EndpointKit-free")
    }

    @Test func `a file on disk that contains the boundary is written again with another`() throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).txt")
        // The clashing boundary straddles the first two chunks of the copy.
        var bytes = Data(repeating: 0x41, count: MultipartBody.chunkSize - 5)
        bytes += Data("EndpointKit-clash".utf8) + Data(repeating: 0x42, count: 100)
        try bytes.write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let candidates = Locked(["EndpointKit-clash", "EndpointKit-free"])
        var body = try MultipartBody(
            fields: [("f", .file(MultipartFile(contentsOf: source, contentType: "text/plain")))],
            makeBoundary: { candidates.withLock { $0.removeFirst() } })
        #expect(body.boundary == "EndpointKit-clash")  // the file is only read while writing
        let file = try body.writeToTemporaryFile()
        #expect(body.boundary == "EndpointKit-free")
        var expected = Data("--EndpointKit-free\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\(source.lastPathComponent)\"\r\nContent-Type: text/plain\r\n\r\n".utf8)
        expected += bytes + Data("\r\n--EndpointKit-free--\r\n".utf8)
        #expect(try Data(contentsOf: file.url) == expected)
    }

    @Test func `a call whose boundary changes while streaming declares the new one`() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).txt")
        try Data("x EndpointKit-clash y".utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let candidates = Locked(["EndpointKit-clash", "EndpointKit-free"])
        let pending = try MultipartBody(
            fields: [("f", .file(MultipartFile(contentsOf: source)))], makeBoundary: { candidates.withLock { $0.removeFirst() } })
        var request = URLRequest(url: URL(string: "https://x.test/upload")!)
        request.setValue(pending.contentType, forHTTPHeaderField: "Content-Type")
        var prepared = PreparedRequest(request: request, restful: Restful(.post, "upload"), pendingBody: pending, prefix: "")
        try await prepared.writePendingBody()
        #expect(prepared.request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=EndpointKit-free")
        let written = try Data(contentsOf: try #require(prepared.bodyFile).url)
        #expect(String(decoding: written, as: UTF8.self).hasSuffix("\r\n--EndpointKit-free--\r\n"))
        #expect(prepared.pendingBody == nil)
    }

    @Test(arguments: [
        ("naïve 日本 🎉.txt", #"name="naïve 日本 🎉.txt"; filename="naïve 日本 🎉.txt""#),
        ("plain; x=1.txt", #"name="plain; x=1.txt"; filename="plain; x=1.txt""#),
        (#"say "hi".txt"#, #"name="say %22hi%22.txt"; name*=UTF-8''say%20%22hi%22.txt; filename="say %22hi%22.txt"; filename*=UTF-8''say%20%22hi%22.txt"#),
        ("line\r\nbreak", #"name="line%0D%0Abreak"; name*=UTF-8''line%0D%0Abreak; filename="line%0D%0Abreak"; filename*=UTF-8''line%0D%0Abreak"#),
        (#"back\slash"#, #"name="back%5Cslash"; name*=UTF-8''back%5Cslash; filename="back%5Cslash"; filename*=UTF-8''back%5Cslash"#),
        ("a%22b", #"name="a%22b"; name*=UTF-8''a%2522b; filename="a%22b"; filename*=UTF-8''a%2522b"#),
    ])
    func `names are quoted as browsers quote them, with an exact name* where quotes cannot carry them`(
        name: String, parameters: String
    ) throws {
        let body = try MultipartBody(
            fields: [(name, .file(MultipartFile(Data("1".utf8), filename: name, contentType: "text/plain")))],
            makeBoundary: { "B" })
        let expected = "--B\r\nContent-Disposition: form-data; \(parameters)\r\nContent-Type: text/plain\r\n\r\n1\r\n--B--\r\n"
        #expect(String(decoding: body.data(), as: UTF8.self) == expected)
    }

    struct Gallery: Endpoint {
        let endpoint = Restful(.put, "gallery", body: .multipart)
        let title: String
        let photos: [MultipartFile]
        let tags: [String]
        let visible: Bool
        let meta: [String: Int]
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `lists repeat their field, nested values use brackets, and files on disk are streamed`() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ek-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let onDisk = directory.appendingPathComponent("big.bin")
        // Written in place: `(0..<n).map` takes seconds in a debug build, on one of the few
        // threads every Swift task shares.
        var bytes = Data(count: 3 * MultipartBody.chunkSize + 17)
        bytes.withUnsafeMutableBytes { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 31) }
        }
        try bytes.write(to: onDisk)

        let transport = RecordingTransport()
        let endpoint = Gallery(
            title: "Trip",
            photos: [MultipartFile(contentsOf: onDisk, contentType: "application/x-test"), MultipartFile(Data("hi".utf8), filename: "b.txt", contentType: "text/plain")],
            tags: ["x", "y"], visible: true, meta: ["b": 2, "a": 1])
        _ = try await endpoint.call(on: .stub(transport))
        let request = try transport.request
        let b = try boundary(of: request)
        func text(_ name: String, _ value: String) -> Data {
            Data("--\(b)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        var expected = text("title", "Trip")
        expected += Data("--\(b)\r\nContent-Disposition: form-data; name=\"photos\"; filename=\"big.bin\"\r\nContent-Type: application/x-test\r\n\r\n".utf8)
        expected += bytes + Data("\r\n".utf8)
        expected += Data("--\(b)\r\nContent-Disposition: form-data; name=\"photos\"; filename=\"b.txt\"\r\nContent-Type: text/plain\r\n\r\nhi\r\n".utf8)
        expected += text("tags", "x") + text("tags", "y") + text("visible", "true") + text("meta[a]", "1") + text("meta[b]", "2")
        expected += Data("--\(b)--\r\n".utf8)
        #expect(request.httpBody?.count == expected.count)
        #expect(request.httpBody == expected)
    }

    @Test func `the temporary body file is deleted after the call`() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).txt")
        try Data("payload".utf8).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let transport = FileCheckingTransport()
        _ = try await Gallery(title: "t", photos: [MultipartFile(contentsOf: source)], tags: [], visible: false, meta: [:]).call(on: .stub(transport))
        let file = try #require(transport.files.value.first)
        #expect(transport.existedDuringUpload.value == true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func `a missing file is a clear error and nothing is sent`() async throws {
        let transport = RecordingTransport()
        let missing = URL(fileURLWithPath: "/nonexistent/ek/photo.jpg")
        let error = try await #require(throws: EndpointError.self) {
            try await UploadPhoto(albumId: 1, caption: "c", takenAt: nil, photo: MultipartFile(contentsOf: missing)).call(on: .stub(transport))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.description.hasPrefix("POST /api/v1/albums/{albumId}/photos: the multipart body could not be written: the file /nonexistent/ek/photo.jpg cannot be read"))
        #expect(transport.requests.isEmpty)
    }

    @Test func `a file content type with CR or LF is refused`() async throws {
        let transport = RecordingTransport()
        let photo = MultipartFile(Data(), filename: "a", contentType: "image/png\r\nX-Admin: 1")
        let error = try await #require(throws: EndpointError.self) {
            try await UploadPhoto(albumId: 1, caption: "c", takenAt: nil, photo: photo).call(on: .stub(transport))
        }
        #expect(error.description.contains(#"the file part "a" has an invalid content type: the value of header Content-Type contains CR, which could inject headers"#))
        #expect(transport.requests.isEmpty)
    }
}

/// Records the body file of each upload and whether it existed while being sent.
final class FileCheckingTransport: HTTPTransport {
    let files = Locked<[URL]>([])
    let existedDuringUpload = Locked<Bool?>(nil)

    func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        if case .stream(let stream) = body, let file = stream.fileURL {
            files.withLock { $0.append(file) }
            existedDuringUpload.value = FileManager.default.fileExists(atPath: file.path)
        }
        return (.data(Data()), HTTPURLResponse(url: request.url!, statusCode: 204, httpVersion: nil, headerFields: [:])!)
    }
}
