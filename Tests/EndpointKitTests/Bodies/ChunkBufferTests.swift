@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing

/// A reference that does not keep its object alive.
private final class WeakBox: @unchecked Sendable {
    // Set once before the buffer is stopped, read after: no concurrent access.
    weak var value: AnyObject?
}

@Suite(.serialized) struct ChunkBufferTests {
    /// A buffer whose reader has fallen `megabytes` behind: everything past 1 KiB is in its overflow file.
    private func farBehind(_ megabytes: Int, limit: UInt64 = 1 << 30, onCancel: @escaping @Sendable () -> Void) -> ChunkBuffer {
        let buffer = ChunkBuffer(highWater: 1024, overflowLimit: limit, onCancel: onCancel)
        for _ in 0..<(megabytes * 16) { buffer.append(Data(count: 64 << 10)) }
        return buffer
    }

    @Test func `a stop far behind closes the connection first and releases the overflow file off the caller's thread`() async throws {
        let overflow = WeakBox()
        let openAtClose = Locked<Bool?>(nil)
        let buffer = farBehind(8) { openAtClose.withLock { $0 = overflow.value != nil } }
        overflow.value = buffer.currentOverflow
        #expect(overflow.value != nil)
        ChunkBuffer.releases.suspend()
        buffer.cancel()
        let releasedOnCaller = overflow.value == nil
        ChunkBuffer.releases.resume()
        #expect(openAtClose.value == true)   // the connection was closed before anything else
        #expect(!releasedOnCaller)           // the file was not closed on the caller's thread
        ChunkBuffer.releases.sync {}
        #expect(overflow.value == nil)       // and it is closed after all
        await #expect(throws: CancellationError.self) { try await buffer.next() }
    }

    @Test func `the overflow file is closed by the release queue, whoever lets go of it last`() async throws {
        let buffer = farBehind(8) {}
        let overflow = try #require(buffer.currentOverflow)  // a reference the caller keeps
        buffer.cancel()
        ChunkBuffer.releases.sync {}
        #expect(overflow.isClosed)
    }

    @Test func `a reader too far behind fails with its error, and the connection is closed before the file is released`() async throws {
        let overflow = WeakBox()
        let openAtClose = Locked<Bool?>(nil)
        let buffer = farBehind(2, limit: 4 << 20) { openAtClose.withLock { $0 = overflow.value != nil } }
        overflow.value = buffer.currentOverflow
        ChunkBuffer.releases.suspend()
        for _ in 0..<64 { buffer.append(Data(count: 64 << 10)) }   // past the 4 MiB limit
        ChunkBuffer.releases.resume()
        #expect(openAtClose.value == true)
        await #expect(throws: URLError.self) { try await buffer.next() }
        ChunkBuffer.releases.sync {}
        #expect(overflow.value == nil)
    }

    @Test func `tiny chunks wait for the reader joined, in order, and nothing is lost`() async throws {
        let buffer = ChunkBuffer()
        var expected = Data()
        for n in 0..<10_000 {
            let event = Data("data: {\"n\": \(n)}\n\n".utf8)
            expected.append(event)
            buffer.append(event)
        }
        #expect(buffer.chunkCount <= expected.count / ChunkBuffer.smallChunk + 1)  // not 10,000 allocations
        buffer.finish()
        var received = Data()
        var reads = 0
        while let chunk = try await buffer.next() {
            received.append(chunk)
            reads += 1
        }
        #expect(received == expected)
        #expect(reads < 20)  // 10,000 writes came out in a few large chunks
    }

    @Test func `a reader cancelled before it has read a finished stream to its end gets CancellationError, not the end`() async throws {
        // What a call's deadline does to a body read whole: the producer has finished, the reader
        // has the first part, and is cancelled. The end it then read was the end of a body cut
        // short (seen as 4 bytes of 8 from a stub transport, 165 to 284 calls in 4,000 with a
        // deadline racing the read).
        let buffer = ChunkBuffer(highWater: .max)
        buffer.append(Data(repeating: 1, count: 200_000))  // two reads: 200 KB twice is more than one read hands over
        buffer.append(Data(repeating: 2, count: 200_000))
        buffer.finish()
        let reader = Task { () -> (first: Int, then: Result<Data?, any Error>) in
            let first = try await buffer.next()?.count ?? 0
            withUnsafeCurrentTask { $0?.cancel() }
            do { return (first, .success(try await buffer.next())) } catch { return (first, .failure(error)) }
        }
        let (first, then) = try await reader.value
        #expect(first == 200_000)
        #expect(throws: CancellationError.self) { try then.get() }
    }
}
