import Foundation

extension MessageBody {
    /// The same body, with `action` called once when the body is over: at once for bytes in
    /// memory; for a stream, when it has been read to its end, has failed, or has been dropped or
    /// cancelled unread.
    ///
    /// For a middleware that holds something for as long as an answer is being received, such as a
    /// background task or a timer for metrics: a streamed answer (Server-Sent Events, a download)
    /// passes back through the chain at its head, long before its last byte.
    ///
    /// ```swift
    /// let (answer, response) = try await next(request, body)
    /// return (answer.whenFinished { activity.end() }, response)
    /// ```
    public func whenFinished(_ action: @escaping @Sendable () -> Void) -> MessageBody {
        switch self {
        case .data:
            action()
            return self
        case .stream(let stream):
            return .stream(ByteStream(FinishingChunks(base: stream, finish: FinishOnce(action))))
        }
    }
}

/// Calls its action once: at the first of `finish()` and its own end.
private final class FinishOnce: Sendable {
    private let action: Locked<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    func finish() {
        action.withLock { pending in
            defer { pending = nil }
            return pending
        }?()
    }

    deinit {
        finish()  // dropped unread, or its reader went away
    }
}

/// The chunks of `base`, then a call to `finish`.
private struct FinishingChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: ByteStream
    let finish: FinishOnce

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: ByteStream.AsyncIterator
        let finish: FinishOnce

        mutating func next() async throws -> Data? {
            do {
                guard let chunk = try await base.next() else {
                    finish.finish()
                    return nil
                }
                return chunk
            } catch {
                finish.finish()
                throw error
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), finish: finish)
    }
}
