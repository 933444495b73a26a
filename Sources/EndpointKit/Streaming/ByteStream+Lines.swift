import Foundation

extension ByteStream {
    /// The body as lines of UTF-8 text, without their line ends (LF or CRLF).
    ///
    /// ```swift
    /// for try await line in try await ExportLog().response.lines { print(line) }
    /// ```
    public var lines: Lines {
        Lines(bytes: self, maximumLength: 1 << 20)
    }

    /// The body as lines of text, each at most `maximumLength` bytes: a longer line fails the
    /// stream with an ``EndpointError`` of kind ``EndpointError/Kind/responseTooLarge``.
    ///
    /// ```swift
    /// for try await line in body.lines(maximumLength: 4096) { print(line) }
    /// ```
    public func lines(maximumLength: Int) -> Lines {
        Lines(bytes: self, maximumLength: maximumLength)
    }

    /// The lines of a ``ByteStream``; invalid UTF-8 is replaced with U+FFFD.
    public struct Lines: AsyncSequence, Sendable {
        /// One line of text, without its line end.
        public typealias Element = String

        let bytes: ByteStream
        let maximumLength: Int

        /// Reads the lines in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: ByteStream.AsyncIterator
            var splitter: LineSplitter
            var ready: [[UInt8]] = []
            var done = false

            /// The next line, or `nil` at the end of the body.
            public mutating func next() async throws -> String? {
                while ready.isEmpty {
                    if done { return nil }
                    guard let chunk = try await chunks.next() else {
                        done = true
                        if let last = splitter.finish() { ready.append(last) }
                        continue
                    }
                    do {
                        ready = try splitter.consume(chunk)
                    } catch {
                        throw chunks.failure(TransportRefusal.tooLarge(limit: error.limit, response: nil))
                    }
                }
                return String(decoding: ready.removeFirst(), as: UTF8.self)
            }
        }

        /// Starts reading.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: bytes.makeAsyncIterator(), splitter: LineSplitter(maximumLength: maximumLength))
        }
    }
}
