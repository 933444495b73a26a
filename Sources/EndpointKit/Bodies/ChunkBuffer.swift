import Foundation

/// The chunks of a streamed body between the producer (a URLSession delegate, a stub, an adapted
/// sequence) and the one consumer, in bounded memory.
///
/// An async producer awaits ``write(_:)``, which returns only while the buffer holds less than
/// `highWater` bytes: true back-pressure. A producer that cannot wait (URLSession's delegate)
/// appends with ``append(_:)``; past `highWater` bytes in memory, further chunks go to a temporary
/// file (when `overflowLimit` allows) and are read back in order, so memory stays about
/// `highWater` however far the reader falls behind. A reader more than `overflowLimit` bytes
/// behind fails the stream instead of filling the disk.
///
/// Why not pause the URLSession task: on Linux, `suspend()` removes the transfer from libcurl and
/// `resume()` starts it again, which sends the request a second time (measured: a second `GET`
/// after a suspend near the end of a body, and the first body never completes).
///
/// The consumer's ``next()`` waits at most `idleTimeout` seconds for a chunk, then fails the stream
/// with `URLError(.timedOut)`; time spent while the consumer is busy elsewhere does not count.
final class ChunkBuffer: Sendable {
    /// The overflow file, used only under the buffer's lock (and, once taken out of the buffer, by
    /// the queue that closes it).
    final class Overflow: @unchecked Sendable {
        let url: URL
        let handle: FileHandle
        var written: UInt64 = 0
        var read: UInt64 = 0
        var pending: UInt64 { written - read }

        init() throws {
            let file = try TemporaryFile(kind: "stream")
            url = file.url
            // Open before the file is deleted (when `file` goes): the space is freed when the handle closes.
            handle = try withExtendedLifetime(file) { try FileHandle(forUpdating: file.url) }
        }

        func append(_ data: Data) throws {
            try handle.seek(toOffset: written)
            try handle.write(contentsOf: data)
            written += UInt64(data.count)
        }

        func next(upTo count: Int) throws -> Data {
            try handle.seek(toOffset: read)
            // 32-bit: clamping only lowers a count past Int.max to Int.max, and `count` is smaller.
            let data = try handle.read(upToCount: min(count, Int(clamping: pending))) ?? Data()
            read += UInt64(data.count)
            if pending == 0 {
                written = 0  // drained: start the file over
                read = 0
                try handle.truncate(atOffset: 0)
            }
            return data
        }

        /// Whether the file is closed, for tests.
        private(set) var isClosed = false

        func close() {
            guard !isClosed else { return }
            isClosed = true
            try? handle.close()
        }

        deinit {
            close()
        }
    }

    private struct State: Sendable {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var overflow: Overflow?
        /// How the stream ended, once the producer or a cancel has said so.
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<Data?, any Error>?
        /// Resumes a producer that waits for room: a continuation, or a callback.
        var writer: (@Sendable () -> Void)?
        var cancelled = false
    }

    private let state = Locked(State())
    /// Chunks smaller than this are joined while they wait for the reader.
    static let smallChunk = 16 << 10
    private let highWater: Int
    private let overflowLimit: UInt64
    private let idleTimeout: TimeInterval?
    private let onCancel: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - highWater: The most bytes held in memory before ``write(_:)`` waits or ``append(_:)``
    ///     overflows to disk.
    ///   - overflowLimit: The most bytes ``append(_:)`` may keep on disk; 0 keeps everything in memory.
    ///   - idleTimeout: The longest ``next()`` waits for a chunk, in seconds; `nil` for no limit.
    ///   - onCancel: Stops the producer when the consumer goes away or is cancelled.
    init(highWater: Int = 1 << 20, overflowLimit: UInt64 = 0, idleTimeout: TimeInterval? = nil, onCancel: (@Sendable () -> Void)? = nil) {
        self.highWater = max(highWater, 1)
        self.overflowLimit = overflowLimit
        self.idleTimeout = idleTimeout
        self.onCancel = onCancel
    }

    // MARK: - The producer

    /// Adds a chunk, to memory or (past the high-water mark) to the overflow file. Chunks after the
    /// end (a cancel) are dropped.
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        var failure: (any Error)?
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            let overflowing = (state.overflow?.pending ?? 0) > 0
            guard overflowLimit > 0, overflowing || state.buffered + data.count > highWater else {
                // Tiny chunks (one server write per event, as LLM token streams arrive) join the
                // last one: thousands of small allocations would cost more than the bytes they hold
                // and fragment the heap across streams.
                if data.count < Self.smallChunk, state.chunks.count > state.head,
                   state.chunks[state.chunks.count - 1].count < Self.smallChunk {
                    state.chunks[state.chunks.count - 1].append(data)
                } else {
                    state.chunks.append(data)
                }
                state.buffered += data.count
                return nil
            }
            do {
                let overflow = try state.overflow ?? Overflow()
                state.overflow = overflow
                guard overflow.pending + UInt64(data.count) <= overflowLimit else {
                    throw URLError(.dataLengthExceedsMaximum, userInfo: [
                        NSLocalizedDescriptionKey: "the reader fell more than \(overflowLimit) bytes behind the server",
                    ])
                }
                try overflow.append(data)
            } catch {
                failure = error
            }
            return nil
        }
        if let reader {
            Deadlines.shared.remove(self)
            reader.resume(returning: data)
        }
        if let failure { stop(with: failure) }
    }

    /// Adds a chunk, waiting while the buffer is past its high-water mark.
    func write(_ data: Data) async {
        await withCheckedContinuation { continuation in
            write(data) { continuation.resume() }
        }
    }

    /// Adds a chunk and calls `ready` once the buffer is below its high-water mark: at once, or
    /// when the reader has taken enough (or the stream ended). For a producer that cannot wait
    /// inside a task, such as an event loop's handler.
    func write(_ data: Data, whenReady ready: @escaping @Sendable () -> Void) {
        append(data)
        let wait = state.withLock { state -> Bool in
            guard state.end == nil, state.buffered > highWater else { return false }
            state.writer = ready
            return true
        }
        if !wait { ready() }
    }

    /// Ends the stream: cleanly when `error` is `nil`. Buffered chunks are still read first.
    func finish(throwing error: (any Error)? = nil) {
        let (reader, writer) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.reader = nil; state.writer = nil }
            return (state.reader, state.writer)
        }
        Deadlines.shared.remove(self)
        writer?()
        guard let reader else { return }
        if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
    }

    /// Whether the consumer has gone away: a producer stops writing.
    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    // MARK: - The consumer

    /// The next chunk, `nil` at the end of the stream.
    ///
    /// - Throws: What the producer ended the stream with; `CancellationError` when the calling task
    ///   is cancelled (the producer is stopped); `URLError(.timedOut)` after `idleTimeout`.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let outcome = state.withLock { state -> Result<Data?, any Error>? in
                    if state.head < state.chunks.count {
                        // What has piled up goes out at once (up to 256 KiB): a reader that fell
                        // behind catches up in fewer, larger steps.
                        var chunk = state.chunks[state.head]
                        state.head += 1
                        while state.head < state.chunks.count, chunk.count + state.chunks[state.head].count <= 1 << 18 {
                            chunk.append(state.chunks[state.head])
                            state.head += 1
                        }
                        state.buffered -= chunk.count
                        if state.head == state.chunks.count || state.head > 64 {
                            state.chunks.removeFirst(state.head)
                            state.head = 0
                        }
                        return .success(chunk)
                    }
                    if let overflow = state.overflow, overflow.pending > 0 {
                        return Result { try overflow.next(upTo: 1 << 18) }
                    }
                    switch state.end {
                    case .success?: return .success(nil)
                    case .failure(let error)?: return .failure(error)
                    case nil:
                        if state.cancelled { return .failure(CancellationError()) }
                        state.reader = continuation
                        return nil
                    }
                }
                wakeWriter()
                if let outcome { return continuation.resume(with: outcome) }
                if let idleTimeout, let nanoseconds = Seconds.nanoseconds(idleTimeout) {
                    Deadlines.shared.add(self, after: nanoseconds) { [weak self] in
                        self?.stop(with: URLError(.timedOut, userInfo: [
                            NSLocalizedDescriptionKey: "nothing arrived for \(idleTimeout) s (the stream's idle timeout)",
                        ]))
                    }
                    // A chunk that came before the deadline was set removed nothing: remove it now.
                    if state.withLock({ $0.reader == nil }) { Deadlines.shared.remove(self) }
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Wakes a producer waiting in ``write(_:)`` once the buffer has room.
    private func wakeWriter() {
        let writer = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.buffered <= highWater else { return nil }
            defer { state.writer = nil }
            return state.writer
        }
        writer?()
    }

    /// The consumer is gone or cancelled: stop the producer and drop what is buffered.
    func cancel() {
        stop(with: CancellationError())
    }

    /// Fails the stream with `error` (an idle timeout, a reader too far behind, a cancel) unless it
    /// ended with every byte read, closes the connection first, wakes the reader and writer, then
    /// lets go of what is buffered, off the caller's path.
    private func stop(with error: any Error) {
        let (first, overflow, reader, writer) = state.withLock { state in
            // Bytes the reader has not had are dropped: after them, a stream that had ended well
            // would read as the whole body, cut short.
            let kept = state.end == nil || state.buffered > 0 || (state.overflow?.pending ?? 0) > 0 ? .failure(error) : state.end
            defer { state = State(end: kept, cancelled: true) }
            return (!state.cancelled, state.overflow, state.reader, state.writer)
        }
        if first { onCancel?() }
        Deadlines.shared.remove(self)
        writer?()
        reader?.resume(throwing: error)
        Self.release(overflow)
    }

    /// Where overflow files are closed. Closing an unlinked file of a gigabyte frees its blocks,
    /// which took 0.2 to 4 s: never on the thread of a `break` or a cancel.
    static let releases = DispatchQueue(label: "EndpointKit.ChunkBuffer.releases", qos: .utility)

    private static func release(_ overflow: Overflow?) {
        guard let overflow else { return }
        // Closed here explicitly: left to the last release, the close ran on the caller's thread
        // whenever this queue let go of its reference before the caller did (182 to 483 ms after
        // a `break` 1 GiB behind).
        releases.async { overflow.close() }
    }

    /// How many chunks wait in memory, for tests.
    var chunkCount: Int {
        state.withLock { $0.chunks.count - $0.head }
    }

    /// The overflow file in use, for tests that check when it is released.
    var currentOverflow: Overflow? {
        state.withLock { $0.overflow }
    }
}
