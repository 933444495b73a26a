import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls in flight of a ``RequestCoalescing`` middleware, by key: the first call starts its
/// request, and every identical call that arrives while it is in flight waits for the same answer.
///
/// The request runs on behalf of everyone waiting for it, in a task of its own (started from the
/// first call's task, whose task-local values it keeps), as a single-flight group does: a caller
/// that is cancelled leaves, and the request goes on for the others; it is cancelled only when the
/// last caller leaves, and an identical call after that starts afresh.
final class Coalescer: Sendable {
    typealias Answer = (MessageBody, HTTPURLResponse)

    private let flights = Locked<[String: Flight]>([:])

    /// How many calls share requests in flight now (for tests).
    var waiting: Int { flights.withLock { $0.values.reduce(0) { $0 + $1.members } } }

    /// What makes two requests the same: operation, method, URL and every header, sorted.
    static func key(for request: URLRequest, operation: String) -> String? {
        guard let url = request.url else { return nil }
        let headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        return ([operation, request.httpMethod ?? "GET", url.absoluteString] + headers).joined(separator: "\n")
    }

    /// The answer to the request in flight under `key`, or to `send()`, shared with every caller
    /// that joins while it is in flight.
    func answer(for key: String, send: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        let (flight, member) = flights.withLock { flights -> (Flight, UInt64) in
            if let flight = flights[key], let member = flight.join() { return (flight, member) }
            let flight = Flight()
            flights[key] = flight
            return (flight, flight.join()!)  // a new flight takes its first member
        }
        if member == 1 {
            // Started outside the lock; `Task` keeps this caller's task-local values for the chain.
            flight.start(Task { [flights] in
                let result: Result<Answer, any Error>
                do { result = .success(try await send()) } catch { result = .failure(error) }
                flights.withLock { if $0[key] === flight { $0[key] = nil } }
                flight.finish(result)
            })
        }
        return try await flight.wait(member) {
            // The last caller left before the answer: nobody wants it, and the next call starts afresh.
            self.flights.withLock { if $0[key] === flight { $0[key] = nil } }
        }
    }
}

extension Coalescer {
    /// One request in flight and the callers waiting for it.
    final class Flight: Sendable {
        private struct State {
            var outcome: Result<Answer, any Error>?
            var waiters: [UInt64: CheckedContinuation<Answer, any Error>] = [:]
            var left: Set<UInt64> = []
            var members = 0
            var lastMember: UInt64 = 0
            var abandoned = false
            var task: Task<Void, Never>?
        }

        private let state = Locked(State())

        var members: Int { state.withLock { $0.members } }

        /// A new member's number, or `nil` when the flight is over or abandoned (a caller then
        /// starts another).
        func join() -> UInt64? {
            state.withLock { state in
                guard state.outcome == nil, !state.abandoned else { return nil }
                state.members += 1
                state.lastMember += 1
                return state.lastMember
            }
        }

        /// The task that sends the request; cancelled at once when every caller has left already.
        func start(_ task: Task<Void, Never>) {
            let abandoned = state.withLock { state -> Bool in
                state.task = task
                return state.abandoned
            }
            if abandoned { task.cancel() }
        }

        func finish(_ result: Result<Answer, any Error>) {
            let waiters = state.withLock { state -> [CheckedContinuation<Answer, any Error>] in
                state.outcome = result
                state.members = 0
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }

        /// The answer, for `member`; `CancellationError` when its task is cancelled first. The last
        /// member to leave cancels the request and calls `abandon`.
        func wait(_ member: UInt64, abandon: @escaping @Sendable () -> Void) async throws -> Answer {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                    let ready = state.withLock { state -> Result<Answer, any Error>? in
                        if let outcome = state.outcome { return outcome }
                        if state.left.remove(member) != nil { return .failure(CancellationError()) }
                        state.waiters[member] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let (waiter, cancel) = state.withLock { state -> (CheckedContinuation<Answer, any Error>?, Task<Void, Never>?) in
                    guard state.outcome == nil else { return (nil, nil) }  // the answer is there: take it
                    let waiter = state.waiters.removeValue(forKey: member)
                    if waiter == nil { state.left.insert(member) }  // not waiting yet: it will see this
                    state.members -= 1
                    guard state.members == 0 else { return (waiter, nil) }
                    state.abandoned = true
                    return (waiter, state.task)
                }
                if cancel != nil || state.withLock({ $0.abandoned && $0.members == 0 }) { abandon() }
                cancel?.cancel()
                waiter?.resume(throwing: CancellationError())
            }
        }
    }
}
