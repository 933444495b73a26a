import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends identical GET and HEAD requests that are in flight at the same time once (see
/// ``Server/coalescesIdenticalRequests``): the first call's request is shared, and every caller
/// gets its answer. Cancelling one caller leaves the others waiting for the shared request; it
/// is cancelled only when every caller has gone.
///
/// It works on the request as the middlewares left it, credentials included, just before the
/// transport: that is where two requests are known to be the same.
package final class Coalescer: Sendable {
    package typealias Answer = (MessageBody, HTTPURLResponse)

    private let flights = Locked<[String: Flight]>([:])

    package init() {}

    /// How many calls share requests in flight now (for tests).
    package var waiting: Int { flights.withLock { $0.values.reduce(0) { $0 + $1.members } } }

    /// What makes two requests the same: endpoint, method, URL and every header, sorted.
    static func key(for request: URLRequest, endpoint: String) -> String? {
        guard let url = request.url else { return nil }
        let headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        return ([endpoint, request.httpMethod ?? "GET", url.absoluteString] + headers).joined(separator: "\n")
    }

    /// The answer to the request in flight under `key`, or to `send()`, made for every caller that
    /// joins it until it ends.
    func answer(for key: String, send: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        let (flight, member, isNew) = flights.withLock { flights -> (Flight, UInt64, Bool) in
            if let flight = flights[key] { return (flight, flight.join(), false) }
            let flight = Flight()
            flights[key] = flight
            return (flight, flight.join(), true)
        }
        if isNew {
            // A task of its own, so that cancelling the first caller does not cancel the others.
            // It inherits the first caller's task-local values: its limits and observers.
            flight.start(Task { [flights] in
                let result: Result<Answer, any Error>
                do { result = .success(try await send()) } catch { result = .failure(error) }
                flights.withLock { if $0[key] === flight { $0[key] = nil } }
                flight.finish(result)
            })
        }
        return try await flight.wait(member) { [flights] in
            flights.withLock { if $0[key] === flight { $0[key] = nil } }  // everyone left: the next call starts afresh
        }
    }
}

extension Coalescer {
    /// One shared request and its callers.
    final class Flight: Sendable {
        private struct State {
            var task: Task<Void, Never>?
            var result: Result<Answer, any Error>?
            var waiters: [UInt64: CheckedContinuation<Answer, any Error>] = [:]
            /// Members cancelled before they started waiting.
            var left: Set<UInt64> = []
            var members = 0
            var lastMember: UInt64 = 0
        }

        private let state = Locked(State())

        var members: Int { state.withLock { $0.members } }

        func join() -> UInt64 {
            state.withLock { state in
                state.members += 1
                state.lastMember += 1
                return state.lastMember
            }
        }

        func start(_ task: Task<Void, Never>) {
            let abandoned = state.withLock { state -> Bool in
                state.task = task
                return state.members == 0 && state.result == nil
            }
            if abandoned { task.cancel() }
        }

        func finish(_ result: Result<Answer, any Error>) {
            let waiters = state.withLock { state -> [CheckedContinuation<Answer, any Error>] in
                state.result = result
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }

        /// The shared answer, for `member`; `emptied` runs when the last member leaves before it.
        func wait(_ member: UInt64, emptied: @escaping @Sendable () -> Void) async throws -> Answer {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                    let ready = state.withLock { state -> Result<Answer, any Error>? in
                        if let result = state.result { return result }
                        if state.left.remove(member) != nil { return .failure(CancellationError()) }
                        state.waiters[member] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let (waiter, task, emptiedNow) = state.withLock { state -> (CheckedContinuation<Answer, any Error>?, Task<Void, Never>?, Bool) in
                    guard state.result == nil else { return (nil, nil, false) }  // the answer is there: take it
                    let waiter = state.waiters.removeValue(forKey: member)
                    if waiter == nil { state.left.insert(member) }
                    state.members -= 1
                    return (waiter, state.members == 0 ? state.task : nil, state.members == 0)
                }
                waiter?.resume(throwing: CancellationError())
                if emptiedNow {
                    emptied()
                    task?.cancel()
                }
            }
        }
    }
}
