@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Dispatch
import Foundation
import Testing

/// The shared deadline table of `URLSessionTransport`: an earlier deadline re-arms the timer, a
/// removed one never expires. Outcomes and order only: the margins are seconds against
/// milliseconds, so a loaded machine cannot make it fail.
@Suite struct DeadlinesTests {
    final class Owner: Sendable {}

    @Test func `an earlier deadline expires first, and a removed one never`() async throws {
        let deadlines = Deadlines(queue: DispatchQueue(label: "DeadlinesTests"))
        let late = Owner(), early = Owner(), removed = Owner()
        let expired = Locked<[String]>([])
        let events = AsyncStream<String>.makeStream()
        func expire(_ name: String) -> @Sendable () -> Void {
            { expired.withLock { $0.append(name) }; events.continuation.yield(name) }
        }
        deadlines.add(late, after: 20_000_000_000, expire: expire("late"))  // arms the timer for 20 s
        deadlines.add(removed, after: 50_000_000, expire: expire("removed"))
        deadlines.add(early, after: 100_000_000, expire: expire("early"))
        deadlines.remove(removed)
        #expect(!deadlines.isPending(removed))

        // Without re-arming for the earlier deadlines, nothing would happen for 20 s.
        for await name in events.stream {
            #expect(name == "early")
            break
        }
        #expect(!deadlines.isPending(early))
        #expect(deadlines.isPending(late))
        deadlines.remove(late)
        try await Task.sleep(for: .milliseconds(200))
        #expect(expired.value == ["early"])
    }
}
