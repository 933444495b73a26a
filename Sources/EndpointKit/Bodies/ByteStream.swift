import Foundation

/// A response body read as it arrives: an asynchronous sequence of chunks of bytes.
///
/// Use it as an endpoint's `ReturnPayloadType` for a body that is too big or too slow to wait
/// for, and read it with `for try await`. The call returns as soon as the status and headers have
/// arrived (a status other than 2xx throws first, as usual), and each chunk comes out as soon as
/// the server has sent it. The buffer between the connection and your loop is bounded: while your
/// loop is busy, the connection stops reading, so an endless body runs in constant memory.
///
/// ```swift
/// struct ExportLog: Endpoint {
///     var endpoint: Restful { Restful(.get, "logs/export") }
///     typealias ReturnPayloadType = ByteStream
/// }
///
/// for try await line in try await ExportLog().response.lines {
///     print(line)
/// }
/// ```
///
/// A stream is read once. Breaking out of the loop, dropping the stream or cancelling the task
/// closes the connection. A connection lost in the middle ends the loop with an ``EndpointError``
/// of kind ``EndpointError/Kind/transportFailed``.
public struct ByteStream: AsyncSequence, Sendable {
    /// A chunk of the body, as it arrived.
    public typealias Element = Data

    /// Stops the producer when the last copy of the stream goes away without being read.
    final class Owner: Sendable {
        let buffer: ChunkBuffer
        private let claimed = Locked(false)

        init(buffer: ChunkBuffer) {
            self.buffer = buffer
        }

        /// Whether this is the first claim on the stream's one pass: its first reader.
        func claim() -> Bool {
            claimed.withLock { claimed in
                defer { claimed = true }
                return !claimed
            }
        }

        deinit {
            buffer.cancel()
        }
    }

    let owner: Owner
    /// The file the stream reads, for a request body on disk: each reader reads it from its start,
    /// and a transport may upload the file itself.
    let file: File?
    /// Wraps a failure of the stream in the caller's error type (an ``EndpointError`` naming the
    /// call); set by the call.
    var failure: @Sendable (any Error) -> any Error = { $0 }

    init(buffer: ChunkBuffer) {
        owner = Owner(buffer: buffer)
        file = nil
    }

    /// A file a stream reads, and what keeps it on disk (a temporary file is deleted with its
    /// owner). A class: one reference keeps every stream, and every answer that carries one, small.
    final class File: Sendable {
        let url: URL
        let keeper: TemporaryFile?

        init(url: URL, keeper: TemporaryFile?) {
            self.url = url
            self.keeper = keeper
        }
    }

    /// A stream of `file`'s contents, read in chunks of 64 KiB as the stream is read.
    init(file: File) {
        let buffer = ChunkBuffer(highWater: .max)
        buffer.finish()
        owner = Owner(buffer: buffer)  // not read: each reader opens the file anew
        self.file = file
    }

    /// The file the stream reads, for a request body on disk (a multipart body with files, or
    /// ``init(contentsOf:)``): a transport uploads it from there. `nil` for any other stream.
    ///
    /// ```swift
    /// if case .stream(let stream) = body, let file = stream.fileURL { task = session.uploadTask(with: request, fromFile: file) }
    /// ```
    public var fileURL: URL? { file?.url }

    /// A stream of the file's contents, read in chunks as the stream is read. Unlike a stream
    /// from the network, it can be read more than once, each time from the start: as a request
    /// body in a middleware, it survives a retry.
    ///
    /// ```swift
    /// return try await next(request, .stream(ByteStream(contentsOf: archiveURL)))
    /// ```
    public init(contentsOf url: URL) {
        self.init(file: File(url: url, keeper: nil))
    }

    /// The stream, its failures wrapped by `wrap`.
    func failing(with wrap: @escaping @Sendable (any Error) -> any Error) -> ByteStream {
        var stream = self
        stream.failure = wrap
        return stream
    }

    /// A stream with `data` as its one chunk: what a transport without streaming returns.
    ///
    /// ```swift
    /// let body = ByteStream(Data("hello".utf8))
    /// ```
    public init(_ data: Data) {
        let buffer = ChunkBuffer(highWater: .max)
        buffer.append(data)
        buffer.finish()
        self.init(buffer: buffer)
    }

    /// A stream of the chunks `chunks` produces, for a transport of your own. The sequence is read
    /// only as fast as the stream is, and cancelled with it.
    ///
    /// ```swift
    /// let body = ByteStream(AsyncThrowingStream { continuation in … })
    /// ```
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        let pump = Locked<Task<Void, Never>?>(nil)
        let buffer = ChunkBuffer(onCancel: { pump.withLock { $0 }?.cancel() })
        self.init(buffer: buffer)
        let task = Task {
            do {
                for try await chunk in chunks {
                    if buffer.isCancelled { return }
                    await buffer.write(chunk)
                }
                buffer.finish()
            } catch {
                buffer.finish(throwing: error)
            }
        }
        pump.withLock { $0 = task }
        if buffer.isCancelled { task.cancel() }
    }

    /// Reads the chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// Stops the producer when the loop ends early (a `break`, a thrown error).
        final class Reader: Sendable {
            let owner: Owner
            init(owner: Owner) { self.owner = owner }
            deinit { owner.buffer.cancel() }
        }

        /// `nil` for a second reader of a one-pass stream, which only fails.
        let reader: Reader?
        let failure: @Sendable (any Error) -> any Error

        /// Leaves the connection to the server for a second, then closes it: for a stream that
        /// ended at a terminal or error event, whose server usually closes it right after. A
        /// cancel at that very moment races with the connection's own end inside URLSession on
        /// Linux, which can crash the process (`TaskRegistry.swift: Trying to access a behaviour
        /// for a task that in not in the registry`).
        func closeSoon() {
            let reader = self.reader
            Task {
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                withExtendedLifetime(reader) {}
            }
        }

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws -> Data? {
            guard let reader else { throw failure(TransportRefusal.streamAlreadyRead) }
            do {
                return try await reader.owner.buffer.next()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw failure(error)
            }
        }
    }

    /// Starts reading; a stream from the network has one reader, a stream of a file reads it from
    /// its start each time.
    ///
    /// A second reader of a one-pass stream (one from the network, a producer or a sequence) gets
    /// nothing from it: its first `next()` throws ``TransportRefusal/streamAlreadyRead``, wrapped
    /// like the stream's other failures. Its bytes went to the first reader; an empty body in their
    /// place would be data silently lost.
    public func makeAsyncIterator() -> AsyncIterator {
        if let file {
            return ByteStream(FileChunks(url: file.url)).failing(with: failure).makeAsyncIterator()
        }
        guard owner.claim() else { return AsyncIterator(reader: nil, failure: failure) }
        return AsyncIterator(reader: AsyncIterator.Reader(owner: owner), failure: failure)
    }

    /// Reads the whole body into memory, failing once it passes `limit` bytes.
    ///
    /// ```swift
    /// let data = try await body.collect(upTo: 1 << 20)
    /// ```
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else {
                throw failure(TransportRefusal.tooLarge(limit: limit, response: nil))
            }
            data.append(chunk)
        }
        return data
    }
}
