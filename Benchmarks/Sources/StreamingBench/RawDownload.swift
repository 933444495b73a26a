import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What Foundation itself costs for a download, beside EndpointKit and curl: a `URLSession` data
/// task whose delegate writes each chunk to the file as it arrives (what a hand-written streaming
/// download does), and a `downloadTask`, which leaves the file to Foundation.
enum RawDownload {
    /// The data task: every `didReceive data` written to `file`.
    static func dataTask(_ url: URL, to file: URL) async throws -> Double {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let writer = Writer(handle: handle)
        let session = URLSession(configuration: .ephemeral, delegate: writer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let start = now()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writer.done = continuation
            session.dataTask(with: url).resume()
        }
        return now() - start
    }

    /// The download task: Foundation writes the temporary file, which is then moved to `file`.
    static func downloadTask(_ url: URL, to file: URL) async throws -> Double {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let start = now()
        let (temporary, _) = try await session.download(from: url)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: temporary, to: file)
        return now() - start
    }

    /// `@unchecked Sendable`: URLSession calls it on its delegate queue, one callback at a time;
    /// `done` is set before the task starts.
    private final class Writer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let handle: FileHandle
        var done: CheckedContinuation<Void, any Error>?

        init(handle: FileHandle) {
            self.handle = handle
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            try? handle.write(contentsOf: data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error { done?.resume(throwing: error) } else { done?.resume() }
            done = nil
        }
    }
}
