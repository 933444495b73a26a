import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One download to disk: the partial file, resumption with `Range` and `If-Range`, and what is
/// left behind when it fails (nothing, unless it may be resumed).
struct DownloadFile: Sendable {
    /// Where to resume from: the bytes already on disk and the validator they were sent with.
    struct Resumption: Sendable {
        let offset: Int64
        let validator: String
    }

    let target: URL
    let resumable: Bool
    let limit: Int?
    /// The call, for errors: `"GET /exports/7"`.
    let label: String
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
        progress: (@Sendable (TransferProgress) -> Void)?,
        open: (Resumption?) async throws -> (ByteStream, HTTPURLResponse)
    ) async throws -> URL {
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
                    if let resumption, ContentRange.total(inUnsatisfied: error.response) == resumption.offset {
                        progress?(TransferProgress(completed: resumption.offset, expected: resumption.offset))
                        return try finish()
                    }
                    resumption = nil
                    removePartial()
                    continue
                }
                var offset: Int64 = 0
                var expected: Int64? = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
                if let current = resumption, response.statusCode == 206 {
                    guard let range = ContentRange(response), range.first == current.offset else {
                        resumption = nil  // a range that does not continue the file: start over
                        removePartial()
                        continue
                    }
                    offset = current.offset
                    expected = range.total
                }
                // A 200 to a resumed request: the server ignored Range, or the file changed (If-Range).
                // Either way this body is the whole file, written from the start.
                saveValidator(of: response)
                try await write(body, from: offset, expected: expected, response: response, progress: progress)
                return try finish()
            }
            throw EndpointError(
                kind: .transportFailed, endpoint: label,
                reason: "the server's answers could not resume the download, nor start it over")
        } catch {
            // A download that may resume keeps its bytes, if the server gave a validator to resume with.
            if !resumable || !FileManager.default.fileExists(atPath: validatorFile.path) {
                removePartial()
            }
            throw error
        }
    }

    /// The part on disk and its validator, if both are there and usable.
    private func existingResumption() -> Resumption? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int64, size > 0,
              let data = try? Data(contentsOf: validatorFile), let validator = String(data: data, encoding: .utf8),
              !validator.isEmpty, HeaderRules.problem(name: "If-Range", value: validator) == nil else {
            return nil
        }
        return Resumption(offset: size, validator: validator)
    }

    /// Keeps the response's validator next to the partial file: a strong ETag (a weak one cannot
    /// be used in `If-Range`), else `Last-Modified`.
    private func saveValidator(of response: HTTPURLResponse) {
        guard resumable else { return }
        let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        if let validator = etag ?? response.value(forHTTPHeaderField: "Last-Modified") {
            try? Data(validator.utf8).write(to: validatorFile, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: validatorFile)  // nothing to resume with
        }
    }

    private func write(
        _ body: ByteStream, from offset: Int64, expected: Int64?, response: HTTPURLResponse,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws {
        if offset == 0 {
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw EndpointError(
                    kind: .invalidRequest, endpoint: label, reason: "the file \(partial.path) could not be created")
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
                    kind: .responseTooLarge, endpoint: label,
                    reason: "the download is larger than \(limit) bytes, so it was stopped (raise the endpoint's static maximumResponseSize if it is expected)",
                    response: response)
            }
            try handle.write(contentsOf: chunk)
            progress?(TransferProgress(completed: written, expected: expected))
        }
        if let expected, written < expected {
            throw EndpointError(
                kind: .transportFailed, endpoint: label,
                reason: "the download ended after \(written) of \(expected) bytes", response: response)
        }
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
