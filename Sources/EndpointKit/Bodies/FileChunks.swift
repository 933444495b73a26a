import Foundation

/// A file's contents in chunks of 64 KiB, read as they are asked for: what a ``ByteStream`` of a
/// file (a request body on disk) reads.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        var handle: FileHandle?
        var ended = false

        mutating func next() async throws -> Data? {
            guard !ended else { return nil }
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            let chunk = try handle?.read(upToCount: 64 << 10) ?? Data()
            if chunk.isEmpty {
                ended = true
                try handle?.close()
                handle = nil
                return nil
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url)
    }
}
