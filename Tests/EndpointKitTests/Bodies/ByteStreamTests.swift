@testable import EndpointKit
import Foundation
import Testing

/// `ByteStream.makeStream`: the producer end a transport feeds a body into.
@Suite struct ByteStreamProducerTests {
    @Test func `a producer past the limit is called back once the reader has taken enough, not before`() async throws {
        let (stream, producer) = ByteStream.makeStream(bufferingUpTo: 4)
        let readies = Locked(0)
        producer.write(Data("ab".utf8)) { readies.withLock { $0 += 1 } }
        #expect(readies.value == 1)  // below the limit: at once
        producer.write(Data("cdef".utf8)) { readies.withLock { $0 += 1 } }
        #expect(readies.value == 1)  // 6 bytes held: later
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == Data("abcdef".utf8))
        #expect(readies.value == 2)
        producer.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test func `a reader that stops early cancels the producer once, and later writes are dropped`() async throws {
        let cancels = Locked(0)
        let (stream, producer) = ByteStream.makeStream { cancels.withLock { $0 += 1 } }
        producer.write(Data("a".utf8)) {}
        for try await _ in stream { break }
        #expect(cancels.value == 1)
        #expect(producer.isCancelled)
        let readies = Locked(0)
        producer.write(Data("b".utf8)) { readies.withLock { $0 += 1 } }
        #expect(readies.value == 1)  // the stream ended: never left waiting
        #expect(cancels.value == 1)
    }

    @Test func `the idle timeout fails a silent stream and stops the producer`() async throws {
        let cancels = Locked(0)
        let (stream, _) = ByteStream.makeStream(idleTimeout: 0.05) { cancels.withLock { $0 += 1 } }
        let error = await #expect(throws: URLError.self) { for try await _ in stream {} }
        #expect(error?.code == .timedOut)
        #expect(cancels.value == 1)
    }

    @Test func `an error ends the stream after what is buffered`() async throws {
        let (stream, producer) = ByteStream.makeStream()
        await producer.write(Data("a".utf8))
        producer.finish(throwing: URLError(.networkConnectionLost))
        var received = Data()
        let error = await #expect(throws: URLError.self) { for try await chunk in stream { received.append(chunk) } }
        #expect(error?.code == .networkConnectionLost)
        #expect(received == Data("a".utf8))
    }

    @Test func `a second reader of a one-pass stream fails, and the first reads on undisturbed`() async throws {
        let (stream, producer) = ByteStream.makeStream()
        var first = stream.makeAsyncIterator()
        await producer.write(Data("a".utf8))
        #expect(try await first.next() == Data("a".utf8))
        var second = stream.makeAsyncIterator()
        await #expect(throws: TransportRefusal.self) { _ = try await second.next() }
        await producer.write(Data("b".utf8))
        producer.finish()
        #expect(try await first.next() == Data("b".utf8))
        #expect(try await first.next() == nil)
        // Read whole and then again: an error, not an empty body.
        let once = ByteStream(Data("once".utf8))
        #expect(try await once.collect(upTo: 100) == Data("once".utf8))
        let refusal = await #expect(throws: TransportRefusal.self) { _ = try await once.collect(upTo: 100) }
        guard case .streamAlreadyRead? = refusal else { Issue.record("\(String(describing: refusal))"); return }
        // A file's stream reads it from its start each time.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("twice-\(UUID().uuidString)")
        try Data("file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = ByteStream(contentsOf: file)
        #expect(try await fromFile.collect(upTo: 100) == Data("file".utf8))
        #expect(try await fromFile.collect(upTo: 100) == Data("file".utf8))
    }
}
