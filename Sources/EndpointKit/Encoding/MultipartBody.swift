import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `multipart/form-data` body (RFC 7578): its boundary, and its parts written to memory or,
/// when a part is a file on disk, streamed to a temporary file.
///
/// Field names and file names are written as browsers write them (the WHATWG HTML rules that
/// RFC 7578 points to): UTF-8 inside quotes. A name that form cannot carry exactly (one holding
/// `"`, `\`, `%` or a control character: browsers write `"` as `%22`, so `a"b` and `a%22b` would
/// arrive alike) is sent twice: `name*=UTF-8''…` (RFC 8187 percent-encoding, which parsers such as
/// werkzeug prefer) and a browser-style `name="…"` for parsers that only read that.
struct MultipartBody: Sendable {
    typealias Field = ParameterEncoder.Field

    let fields: [(name: String, value: Field)]
    private(set) var boundary: String
    private let makeBoundary: @Sendable () -> String

    /// Bytes copied from a file at a time.
    static let chunkSize = 1 << 20

    init(fields: [(name: String, value: Field)], makeBoundary: @escaping @Sendable () -> String = MultipartBody.randomBoundary) throws {
        for case (_, .file(let file)) in fields {
            if let problem = HeaderRules.problem(name: "Content-Type", value: file.contentType) {
                throw EncodingError.invalidValue(file.contentType, EncodingError.Context(
                    codingPath: [], debugDescription: "the file part \"\(file.filename)\" has an invalid content type: \(problem)"))
            }
        }
        self.fields = fields
        self.makeBoundary = makeBoundary
        boundary = makeBoundary()
        while inMemoryContentContains(boundary) {
            boundary = makeBoundary()
        }
    }

    /// `multipart/form-data; boundary=…`
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Whether a part is a file to be read from disk.
    var streamsFromDisk: Bool {
        fields.contains { if case .file(let file) = $0.value, case .file = file.source { true } else { false } }
    }

    /// A boundary of 128 random bits: `EndpointKit-` and 32 hex digits.
    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return "EndpointKit-" + String(repeating: "0", count: 16 - high.count) + high
            + String(repeating: "0", count: 16 - low.count) + low
    }

    // MARK: - Writing

    /// The whole body in memory; only for bodies without files on disk.
    func data() -> Data {
        var body = Data()
        _ = write({ body.append($0) }, copy: { _ in true })
        return body
    }

    /// Streams the body into a new temporary file on a dispatch queue, so that the copy does not
    /// hold up a thread of Swift's cooperative pool; returns the file and the final Content-Type.
    func writtenToTemporaryFile() async throws -> (file: TemporaryFile, contentType: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                var body = self
                continuation.resume(with: Result { (try body.writeToTemporaryFile(), body.contentType) })
            }
        }
    }

    /// Streams the body into a new temporary file, a chunk at a time. If a file on disk turns out
    /// to contain the boundary, starts again with another one.
    mutating func writeToTemporaryFile() throws -> TemporaryFile {
        while true {
            let file = try TemporaryFile(kind: "multipart")
            if try write(to: file.url) {
                return file
            }
            boundary = makeBoundary()
        }
    }

    /// Writes the body to `url`; `false` when a file on disk contains the boundary.
    private func write(to url: URL) throws -> Bool {
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        let delimiter = Data(boundary.utf8)
        return try write({ try output.write(contentsOf: $0) }, copy: { try copy($0, to: output, lookingFor: delimiter) })
    }

    /// The body, part by part, through `emit`; a file part on disk through `copy`, which answers
    /// `false` when the file holds the boundary (and so this does).
    private func write(_ emit: (Data) throws -> Void, copy: (URL) throws -> Bool) rethrows -> Bool {
        for (name, value) in fields {
            try emit(header(name: name, value: value))
            switch value {
            case .text(let text):
                try emit(Data(text.utf8))
            case .file(let file):
                switch file.source {
                case .data(let data): try emit(data)
                case .file(let source): guard try copy(source) else { return false }
                }
            }
            try emit(Data("\r\n".utf8))
        }
        try emit(Data("--\(boundary)--\r\n".utf8))
        return true
    }

    /// Copies `source` into `output`; `false` as soon as the copied bytes contain `delimiter`.
    private func copy(_ source: URL, to output: FileHandle, lookingFor delimiter: Data) throws -> Bool {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: source)
        } catch {
            throw EncodingError.invalidValue(source.path, EncodingError.Context(
                codingPath: [], debugDescription: "the file \(source.path) cannot be read: \(error.localizedDescription)", underlyingError: error))
        }
        defer { try? input.close() }
        var tail = Data()  // the end of the previous chunk, to find a delimiter split across chunks
        while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
            if Self.contains(tail + chunk.prefix(delimiter.count), delimiter) || Self.contains(chunk, delimiter) {
                return false
            }
            try output.write(contentsOf: chunk)
            tail = chunk.suffix(delimiter.count - 1)
        }
        return true
    }

    // MARK: - Parts

    private func header(name: String, value: Field) -> Data {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; " + Self.parameter("name", name)
        if case .file(let file) = value {
            header += "; " + Self.parameter("filename", file.filename) + "\r\nContent-Type: \(file.contentType)"
        }
        header += "\r\n\r\n"
        return Data(header.utf8)
    }

    /// `name="value"`, followed by `name*=UTF-8''value` when the quoted form cannot carry the
    /// value exactly.
    static func parameter(_ name: String, _ value: String) -> String {
        let quoted = "\(name)=\"\(escaped(value))\""
        guard value.utf8.contains(where: isAmbiguousInQuotes) else { return quoted }
        return quoted + "; \(name)*=UTF-8''" + PercentEncoding.encode(value)
    }

    /// Bytes the browser-style quoted form does not carry exactly: `"` (written `%22`), `%` (so
    /// `%22` is ambiguous), `\` (an escape for many parsers) and control characters.
    private static func isAmbiguousInQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F
    }

    /// A name as browsers quote it: `"` → `%22`, CR → `%0D`, LF → `%0A`, and `\` → `%5C` so that no
    /// parser reads it as an escape; everything else as UTF-8.
    static func escaped(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A || $0 == UInt8(ascii: "\\") }) else {
            return name
        }
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case "\\": result += "%5C"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private func inMemoryContentContains(_ boundary: String) -> Bool {
        let delimiter = Data(boundary.utf8)
        return fields.contains { _, value in
            switch value {
            case .text(let text): Self.contains(Data(text.utf8), delimiter)
            case .file(let file): if case .data(let data) = file.source { Self.contains(data, delimiter) } else { false }
            }
        }
    }

    /// Whether `data` contains `delimiter`.
    static func contains(_ data: Data, _ delimiter: Data) -> Bool {
        guard data.count >= delimiter.count else { return false }
        return data.withUnsafeBytes { haystack in
            delimiter.withUnsafeBytes { needle in
                guard let start = haystack.baseAddress, let pattern = needle.baseAddress, needle.count > 0 else { return false }
                let first = Int32(needle[0])
                var offset = 0
                let lastStart = haystack.count - needle.count
                while offset <= lastStart {
                    // memchr finds the candidate first byte quickly; memcmp checks the rest.
                    guard let hit = memchr(start + offset, first, lastStart - offset + 1) else { return false }
                    let position = start.distance(to: UnsafeRawPointer(hit))
                    if memcmp(start + position, pattern, needle.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }
}
