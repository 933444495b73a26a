@testable import EndpointKit
import Foundation
import Testing

/// `whenFinished(_:)`: what `BackgroundExecution` uses to hold its background task until a
/// streamed answer is over, not only until its head.
@Suite struct MessageBodyFinishTests {
    final class Calls: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func record() { count.withLock { $0 += 1 } }

        /// Waits until the count is at least `expected`; the bound is far from the few
        /// milliseconds this takes, and a failure would be a hang.
        func wait(for expected: Int) async throws {
            for _ in 0..<2_000 where value < expected { try await Task.sleep(nanoseconds: 10_000_000) }
        }
    }

    static func stream(_ chunks: [String], failing: Bool = false) -> (ByteStream, AsyncThrowingStream<Data, any Error>.Continuation) {
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
        return (ByteStream(body), continuation)
    }

    @Test func `bytes in memory are finished at once`() {
        let calls = Calls()
        let body = MessageBody.data(Data("{}".utf8)).whenFinished { calls.record() }
        #expect(calls.value == 1)
        guard case .data(let bytes) = body else { Issue.record("not data"); return }
        #expect(bytes == Data("{}".utf8))
    }

    @Test func `a stream is finished after its last chunk, not at its head`() async throws {
        let calls = Calls()
        let (stream, continuation) = Self.stream(["a"])
        let body = MessageBody.stream(stream).whenFinished { calls.record() }
        guard case .stream(let finishing) = body else { Issue.record("not a stream"); return }
        var iterator = finishing.makeAsyncIterator()
        #expect(try await iterator.next() == Data("a".utf8))
        #expect(calls.value == 0)  // the body is still coming
        continuation.yield(Data("b".utf8))
        continuation.finish()
        var rest = Data()
        while let chunk = try await iterator.next() { rest.append(chunk) }
        #expect(rest == Data("b".utf8))
        #expect(calls.value == 1)
        #expect(try await iterator.next() == nil)
        #expect(calls.value == 1)  // once
    }

    @Test func `a stream that fails is finished`() async throws {
        struct Cut: Error {}
        let calls = Calls()
        let (stream, continuation) = Self.stream(["a"])
        continuation.finish(throwing: Cut())
        let body = MessageBody.stream(stream).whenFinished { calls.record() }
        guard case .stream(let finishing) = body else { Issue.record("not a stream"); return }
        await #expect(throws: Cut.self) { for try await _ in finishing {} }
        #expect(calls.value == 1)
    }

    @Test func `a stream dropped unread is finished`() async throws {
        let calls = Calls()
        let (stream, continuation) = Self.stream(["a"])
        do {
            _ = MessageBody.stream(stream).whenFinished { calls.record() }
        }
        try await calls.wait(for: 1)
        #expect(calls.value == 1)
        continuation.finish()
    }

    @Test func `a loop that breaks early finishes the stream`() async throws {
        let calls = Calls()
        let (stream, continuation) = Self.stream(["a", "b"])
        let body = MessageBody.stream(stream).whenFinished { calls.record() }
        guard case .stream(let finishing) = body else { Issue.record("not a stream"); return }
        for try await _ in finishing { break }
        try await calls.wait(for: 1)
        #expect(calls.value == 1)
        continuation.finish()
    }
}
