import Foundation

/// The chunks of a streamed body between the producer (a URLSession delegate, a stub, an adapted
/// sequence) and the one consumer, bounded: past `highWater` buffered bytes the producer is asked to
/// pause, and once the consumer has drained the buffer below `lowWater` it is asked to go on.
///
/// A producer that can be paused (a URLSession task, which stops reading its socket so that TCP
/// slows the sender) passes `pause` and `resume`; an async producer awaits ``write(_:)``, which
/// returns only when there is room. Either way an endless stream read by a slow consumer holds
/// about `highWater` bytes, not everything the server sent.
///
/// The consumer's ``next()`` waits at most `idleTimeout` seconds for a chunk, then fails the stream
/// with `URLError(.timedOut)`; time spent while the consumer is busy elsewhere does not count.
final class ChunkBuffer: Sendable {
    /// Asks the producer to stop (`true`) or to go on (`false`), in the order it was decided.
    typealias FlowControl = @Sendable (_ pause: Bool) -> Void

    private struct State: Sendable {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        /// How the stream ended, once the producer or a cancel has said so.
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<Data?, any Error>?
        var writer: CheckedContinuation<Void, Never>?
        var paused = false
        var cancelled = false
    }

    private let state = Locked(State())
    private let highWater: Int
    private let lowWater: Int
    private let idleTimeout: TimeInterval?
    private let flowControl: FlowControl?
    private let onCancel: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - highWater: Buffered bytes past which the producer is paused.
    ///   - idleTimeout: The longest ``next()`` waits for a chunk, in seconds; `nil` for no limit.
    ///   - flowControl: Pauses and resumes a producer that pushes with ``append(_:)``.
    ///   - onCancel: Stops the producer when the consumer goes away or is cancelled.
    init(
        highWater: Int = 1 << 20, idleTimeout: TimeInterval? = nil,
        flowControl: FlowControl? = nil, onCancel: (@Sendable () -> Void)? = nil
    ) {
        self.highWater = max(highWater, 1)
        lowWater = max(highWater / 4, 1)
        self.idleTimeout = idleTimeout
        self.flowControl = flowControl
        self.onCancel = onCancel
    }

    // MARK: - The producer

    /// Adds a chunk; pauses the producer when the buffer is past its high-water mark. Chunks after
    /// the end (a cancel) are dropped.
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        var pause = false
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.chunks.append(data)
            state.buffered += data.count
            if state.buffered > highWater, !state.paused {
                state.paused = true
                pause = true
            }
            return nil
        }
        if let reader {
            Deadlines.shared.remove(self)
            reader.resume(returning: data)
        }
        if pause { flowControl?(true) }
    }

    /// Adds a chunk, waiting while the buffer is past its high-water mark.
    func write(_ data: Data) async {
        append(data)
        await withCheckedContinuation { continuation in
            let wait = state.withLock { state -> Bool in
                guard state.end == nil, state.buffered > highWater else { return false }
                state.writer = continuation
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    /// Ends the stream: cleanly when `error` is `nil`. Buffered chunks are still read first.
    func finish(throwing error: (any Error)? = nil) {
        let (reader, writer, chunk) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, CheckedContinuation<Void, Never>?, Data?) in
            guard state.end == nil else { return (nil, nil, nil) }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.reader = nil; state.writer = nil }
            return (state.reader, state.writer, nil)
        }
        Deadlines.shared.remove(self)
        writer?.resume()
        guard let reader else { return }
        if let error { reader.resume(throwing: error) } else { reader.resume(returning: chunk) }
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
                let (outcome, resume) = state.withLock { state -> (Result<Data?, any Error>?, Bool) in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.head += 1
                        state.buffered -= chunk.count
                        if state.head == state.chunks.count || state.head > 64 {
                            state.chunks.removeFirst(state.head)
                            state.head = 0
                        }
                        var resume = false
                        if state.paused, state.buffered <= lowWater {
                            state.paused = false
                            resume = true
                        }
                        return (.success(chunk), resume)
                    }
                    switch state.end {
                    case .success?: return (.success(nil), false)
                    case .failure(let error)?: return (.failure(error), false)
                    case nil:
                        if state.cancelled { return (.failure(CancellationError()), false) }
                        state.reader = continuation
                        return (nil, false)
                    }
                }
                if resume { flowControl?(false) }
                wakeWriter()
                if let outcome { return continuation.resume(with: outcome) }
                if let idleTimeout, let nanoseconds = Seconds.nanoseconds(idleTimeout) {
                    Deadlines.shared.add(self, after: nanoseconds) { [weak self] in
                        self?.fail(URLError(.timedOut, userInfo: [
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
        let writer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.buffered <= highWater else { return nil }
            defer { state.writer = nil }
            return state.writer
        }
        writer?.resume()
    }

    /// Fails the stream and stops the producer (an idle timeout).
    private func fail(_ error: any Error) {
        finish(throwing: error)
        stopProducer()
    }

    /// The consumer is gone or cancelled: stop the producer and drop what is buffered.
    func cancel() {
        finish(throwing: CancellationError())
        stopProducer()
    }

    private func stopProducer() {
        let first = state.withLock { state -> Bool in
            defer { state.cancelled = true; state.chunks = []; state.head = 0; state.buffered = 0 }
            return !state.cancelled
        }
        if first { onCancel?() }
    }
}
