@testable import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Where `URLSessionTransport` makes and resumes its URLSession tasks: on one of `SessionCalls`'
/// serial queues, not in the calling Swift task (nor on a concurrent queue, whose threads are the
/// same few Swift's tasks run on). On Linux both calls wait for the one work queue every session
/// shares; under load, two such waits on Swift's two threads stopped every task of the test suite
/// for tens of seconds (issue 53).
@Suite struct ExchangeStartTests {
    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `an exchange makes and resumes its task on a queue of its own, outside every Swift task`() async throws {
        let session = URLSession(configuration: .ephemeral)
        let made = Locked<URLSessionTask?>(nil)
        let request = URLRequest(url: URL(string: "http://127.0.0.1:9/never")!)  // a closed port
        let exchange = Exchange(request: request, uploadsFile: false, context: TransportContext(input: Ping()))
        let madeInSwiftTask = Locked<Bool?>(nil), madeOnSessionCalls = Locked(false)
        let mark = DispatchSpecificKey<Bool>()
        SessionCalls.queue(for: exchange).setSpecific(key: mark, value: true)
        defer { SessionCalls.queue(for: exchange).setSpecific(key: mark, value: nil) }
        let running = Task {
            await exchange.run(deadline: .infinity) {
                madeOnSessionCalls.withLock { $0 = DispatchQueue.getSpecific(key: mark) == true }
                madeInSwiftTask.withLock { $0 = withUnsafeCurrentTask { $0 != nil } }
                let task = session.dataTask(with: request)  // a session without the transport's delegate
                made.withLock { $0 = task }
                return task
            }
        }
        for _ in 0..<2_000 where madeInSwiftTask.withLock({ $0 }) == nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        exchange.complete(error: URLError(.cannotConnectToHost))  // what the delegate would report
        guard case .failure(let error) = await running.value else {
            Issue.record("the exchange did not fail")
            return
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(madeInSwiftTask.withLock { $0 } == false)
        #expect(madeOnSessionCalls.withLock { $0 })
        // Invalidated once its task has ended: corelibs can crash cancelling a task as it completes.
        for _ in 0..<2_000 where made.withLock({ $0?.state }) != .completed {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        session.finishTasksAndInvalidate()
    }
}
