import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One download to disk: the partial file, resumption with `Range` and `If-Range`, and what is
/// left behind when it fails (nothing, unless it may be resumed).
struct DownloadFile: Sendable {
    /// Where to resume from: the bytes already on disk, the validator they were sent with, and the
    /// size of the whole file then (when the server said it).
    struct Resumption: Sendable {
        let offset: Int64
        let validator: String
        let total: Int64?
    }

    let target: URL
    let resumable: Bool
    let limit: Int?
    /// The call, for errors: `"GET /exports/7"`.
    package let label: String
    /// The body as it arrives: `<target>.partial` when it may be resumed, else a hidden file next
    /// to the target, so that the final move stays on one volume.
    let partial: URL
    let validatorFile: URL

    init(target: URL, resumable: Bool, limit: Int?, label: String) {
        self.target = target
        self.resumable = resumable
        self.limit = limit
        self.label = label
        partial = resumable
            ? target.appendingPathExtension("partial")
            : target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).download")
        validatorFile = partial.appendingPathExtension("validator")
    }

    /// Downloads with `open`, which sends the request (with a range to resume, or none) and
    /// returns a 2xx answer at its head.
    func download(
        progress: ProgressThrottle?,
        open: (Resumption?) async throws -> (ByteStream, HTTPURLResponse)
    ) async throws -> (URL, HTTPURLResponse) {
        do {
            var resumption = resumable ? existingResumption() : nil
            if resumption == nil { removePartial() }
            // At most two requests: one that resumes, and one that starts over when its answer
            // cannot continue what is on disk.
            for _ in 0..<2 {
                let body: ByteStream
                let response: HTTPURLResponse
                do {
                    (body, response) = try await open(resumption)
                } catch let error as EndpointError where error.statusCode == 416 && resumption != nil {
                    // Nothing left to send from that offset: the file on disk may be complete.
                    if let resumption, let response = error.response, ContentRange.total(inUnsatisfied: response) == resumption.offset {
                        progress?(TransferProgress(completed: resumption.offset, expected: resumption.offset), isFinal: true)
                        return (try finish(), response)
                    }
                    resumption = nil
                    removePartial()
                    continue
                }
                var offset: Int64 = 0
                var expected: Int64? = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
                if let current = resumption, response.statusCode == 206 {
                    // Only the same version of the file may be continued: the range must start where
                    // the file ends, and the validator and total must be those of the part on disk
                    // (a proxy that ignores If-Range answers 206 with another version's bytes).
                    guard let range = ContentRange(response), range.first == current.offset,
                          Self.validator(of: response).map({ $0 == current.validator }) ?? true,
                          current.total == nil || range.total == nil || current.total == range.total else {
                        resumption = nil
                        removePartial()
                        await Self.discard(body, response: response)
                        continue
                    }
                    offset = current.offset
                    expected = range.total
                }
                // A 200 to a resumed request: the server ignored Range, or the file changed (If-Range).
                // Either way this body is the whole file, written from the start.
                saveValidator(of: response, total: expected)
                try await write(body, from: offset, expected: expected, response: response, progress: progress)
                return (try finish(), response)
            }
            throw EndpointError(
                kind: .transportFailed, route: label,
                reason: "the server's answers could not resume the download, nor start it over")
        } catch {
            // A download that may resume keeps its bytes, if the server gave a validator to resume with.
            if !resumable || !FileManager.default.fileExists(atPath: validatorFile.path) {
                removePartial()
            }
            throw error
        }
    }

    /// Lets go of an answer that will not be written. A small body is read to its end rather
    /// than cancelled: a cancel at the very moment a transfer completes can crash URLSession on
    /// Linux (`TaskRegistry.swift:118`), and a small body completes at about the moment it is
    /// dropped. A large one is cancelled, as a stream's reader that goes away cancels it.
    private static func discard(_ body: ByteStream, response: HTTPURLResponse) async {
        guard (0...(1 << 20)).contains(response.expectedContentLength) else { return }
        do {
            for try await _ in body {}
        } catch {
            // The answer is discarded either way.
        }
    }

    /// The part on disk and its validator, if both are there and usable.
    private func existingResumption() -> Resumption? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int64, size > 0,
              let data = try? Data(contentsOf: validatorFile), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        // The validator on the first line, the whole file's size (when known) on the second.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let validator = String(lines[0])
        guard !validator.isEmpty, HeaderRules.problem(name: "If-Range", value: validator) == nil else { return nil }
        return Resumption(offset: size, validator: validator, total: lines.count > 1 ? Int64(lines[1]) : nil)
    }

    /// The response's validator: a strong ETag (a weak one cannot be used in `If-Range`), else
    /// `Last-Modified`.
    static func validator(of response: HTTPURLResponse) -> String? {
        let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        return etag ?? response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// Keeps the response's validator and the whole file's size next to the partial file.
    private func saveValidator(of response: HTTPURLResponse, total: Int64?) {
        guard resumable else { return }
        if let validator = Self.validator(of: response) {
            try? FileProtection.write(Data((validator + "\n" + (total.map(String.init) ?? "")).utf8), to: validatorFile, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: validatorFile)  // nothing to resume with
        }
    }

    private func write(
        _ body: ByteStream, from offset: Int64, expected: Int64?, response: HTTPURLResponse,
        progress: ProgressThrottle?
    ) async throws {
        if offset == 0 {
            guard FileProtection.createFile(atPath: partial.path) else {
                throw EndpointError(
                    kind: .invalidRequest, route: label, reason: "the file \(partial.path) could not be created")
            }
        }
        let handle = try FileHandle(forWritingTo: partial)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(offset))
        try handle.seekToEnd()
        var written = offset
        progress?(TransferProgress(completed: written, expected: expected))
        for try await chunk in body {
            written += Int64(chunk.count)
            if let limit, written > limit {
                throw EndpointError(
                    kind: .responseTooLarge, route: label,
                    reason: "the download is larger than \(limit) bytes, so it was stopped (raise the endpoint's static maximumResponseSize if it is expected)",
                    response: response)
            }
            try handle.write(contentsOf: chunk)
            progress?(TransferProgress(completed: written, expected: expected))
        }
        if let expected, written < expected {
            throw EndpointError(
                kind: .transportFailed, route: label,
                reason: "the download ended after \(written) of \(expected) bytes", response: response)
        }
        if expected == nil { progress?(TransferProgress(completed: written, expected: nil), isFinal: true) }
    }

    /// Moves the complete file into place.
    private func finish() throws -> URL {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: target.path) {
            try fileManager.removeItem(at: target)
        }
        try fileManager.moveItem(at: partial, to: target)
        try? fileManager.removeItem(at: validatorFile)
        return target
    }

    private func removePartial() {
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: validatorFile)
    }
}

/// A `Content-Range: bytes first-last/total` header (RFC 9110 §14.4).
struct ContentRange: Equatable {
    let first: Int64
    let last: Int64
    let total: Int64?

    init?(_ response: HTTPURLResponse) {
        guard let value = response.value(forHTTPHeaderField: "Content-Range") else { return nil }
        self.init(value)
    }

    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard parts.count == 2, bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
            return nil
        }
        self.first = first
        self.last = last
        total = parts[1] == "*" ? nil : Int64(parts[1])
        if let total, last >= total { return nil }
    }

    /// The total of an unsatisfied range's `Content-Range: bytes */total`, from a 416.
    static func total(inUnsatisfied response: HTTPURLResponse?) -> Int64? {
        guard let value = response?.value(forHTTPHeaderField: "Content-Range")?.trimmingCharacters(in: .whitespaces),
              value.lowercased().hasPrefix("bytes */") else { return nil }
        return Int64(value.dropFirst("bytes */".count))
    }
}
