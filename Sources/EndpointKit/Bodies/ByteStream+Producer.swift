import Foundation

extension ByteStream {
    /// The writing end of a stream made with ``ByteStream/makeStream(bufferingUpTo:idleTimeout:onCancel:)``:
    /// what a transport feeds a response body into as it arrives.
    ///
    /// The stream holds at most about `bufferingUpTo` bytes its reader has not taken: past that,
    /// ``write(_:)`` waits and ``write(_:whenReady:)`` calls back later. Either way, no task and
    /// no thread hop per chunk: the reader takes each chunk from the producer's own call.
    ///
    /// ```swift
    /// let (stream, producer) = ByteStream.makeStream(idleTimeout: context.idleTimeout) { connection.close() }
    /// connection.onBytes = { bytes, readMore in producer.write(bytes, whenReady: readMore) }
    /// connection.onEnd = { error in producer.finish(throwing: error) }
    /// return (.stream(stream), response)
    /// ```
    public struct Producer: Sendable {
        let buffer: ChunkBuffer

        /// Adds a chunk; returns once the stream is below its limit (at once, usually). After the
        /// reader has gone, the chunk is dropped and it returns at once.
        ///
        /// ```swift
        /// for try await chunk in body { await producer.write(chunk) }
        /// ```
        public func write(_ chunk: Data) async {
            await buffer.write(chunk)
        }

        /// Adds a chunk and calls `ready` once the stream has room for more: at once, or when the
        /// reader has taken enough, or when the stream ends. For a producer driven by callbacks (an
        /// event loop): read the next chunk from the connection in `ready`.
        ///
        /// ```swift
        /// producer.write(bytes) { channel.read() }
        /// ```
        public func write(_ chunk: Data, whenReady ready: @escaping @Sendable () -> Void) {
            buffer.write(chunk, whenReady: ready)
        }

        /// Ends the stream: cleanly when `error` is `nil`, else with `error` (a `URLError` for a
        /// lost connection, say). The reader still gets what is buffered first.
        ///
        /// ```swift
        /// producer.finish()
        /// ```
        public func finish(throwing error: (any Error)? = nil) {
            buffer.finish(throwing: error)
        }

        /// Whether the reader has gone away (a `break`, a cancel, the stream dropped): stop
        /// producing. The stream's `onCancel` has been called too.
        ///
        /// ```swift
        /// if producer.isCancelled { return }
        /// ```
        public var isCancelled: Bool {
            buffer.isCancelled
        }
    }

    /// A stream and its producer, for a transport that hands its response body over as it arrives.
    ///
    /// ```swift
    /// let (stream, producer) = ByteStream.makeStream(idleTimeout: context.idleTimeout) { task.cancel() }
    /// ```
    ///
    /// - Parameters:
    ///   - limit: How many bytes the reader may be behind before the producer waits.
    ///   - idleTimeout: The longest the reader waits for a chunk, in seconds, before the stream
    ///     fails with `URLError(.timedOut)`; usually ``TransportContext/idleTimeout``.
    ///   - onCancel: Called once when the reader goes away or the stream fails (a `break`, a
    ///     cancel, the idle timeout): close the connection there. It may run on any thread.
    public static func makeStream(
        bufferingUpTo limit: Int = 1 << 20, idleTimeout: TimeInterval? = nil, onCancel: (@Sendable () -> Void)? = nil
    ) -> (stream: ByteStream, producer: Producer) {
        let buffer = ChunkBuffer(highWater: limit, idleTimeout: idleTimeout, onCancel: onCancel)
        return (ByteStream(buffer: buffer), Producer(buffer: buffer))
    }
}
