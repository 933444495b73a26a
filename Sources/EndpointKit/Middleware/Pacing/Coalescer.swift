import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls in flight of a ``RequestCoalescing`` middleware, by key: the first call sends its
/// request, and every identical call that arrives while it is in flight waits for its answer.
///
/// The first call sends from its own task (a middleware's `next` cannot outlive the call), so
/// cancelling it cancels its request. If others still wait, the call is handed on: the earliest of
/// them sends it again and the rest wait for that one. A waiting caller that is cancelled leaves.
final class Coalescer: Sendable {
    typealias Answer = (MessageBody, HTTPURLResponse)

    private let flights = Locked<[String: Flight]>([:])

    init() {}

    /// How many calls share requests in flight now, senders included (for tests).
    var waiting: Int { flights.withLock { $0.values.reduce(0) { $0 + $1.members } } }

    /// What makes two requests the same: endpoint, method, URL and every header, sorted.
    static func key(for request: URLRequest, endpoint: String) -> String? {
        guard let url = request.url else { return nil }
        let headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        return ([endpoint, request.httpMethod ?? "GET", url.absoluteString] + headers).joined(separator: "\n")
    }

    /// The answer to the request in flight under `key`, or to `send()`, shared with every caller
    /// that joins while it is in flight.
    func answer(for key: String, send: () async throws -> Answer) async throws -> Answer {
        let (flight, member) = flights.withLock { flights -> (Flight, UInt64?) in
            if let flight = flights[key] { return (flight, flight.join()) }
            let flight = Flight()
            flights[key] = flight
            return (flight, nil)
        }
        if let member, let answer = try await flight.wait(member) {
            return answer
        }
        // This caller sends: it came first, or the one that did was cancelled and handed it on.
        let result: Result<Answer, any Error>
        do { result = .success(try await send()) } catch { result = .failure(error) }
        if Task.isCancelled, case .failure = result, flight.handOn() {
            return try result.get()  // a cancelled sender: one of the callers still waiting sends instead
        }
        flights.withLock { if $0[key] === flight { $0[key] = nil } }
        flight.finish(result)
        return try result.get()
    }
}

extension Coalescer {
    /// One request in flight, its sender and the callers waiting for it.
    final class Flight: Sendable {
        private struct State {
            var outcome: Result<Answer, any Error>?
            /// Waiting members; one is woken with `nil` to send when the sender hands on.
            var waiters: [UInt64: CheckedContinuation<Answer?, any Error>] = [:]
            /// Members cancelled before they started waiting.
            var left: Set<UInt64> = []
            /// The sender handed on while no member was waiting yet: the next to wait sends.
            var senderWanted = false
            /// The member sending since the sender handed on (`nil`: the first caller).
            var sender: UInt64?
            var members = 1  // the sender
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

        /// Passes the sending on to a member still waiting (the earliest); `false` when none is left.
        func handOn() -> Bool {
            let (handed, successor) = state.withLock { state -> (Bool, CheckedContinuation<Answer?, any Error>?) in
                guard state.members > 1 else { return (false, nil) }
                state.members -= 1  // the sender leaves
                if let first = state.waiters.keys.min() {
                    state.sender = first
                    return (true, state.waiters.removeValue(forKey: first))
                }
                state.senderWanted = true
                return (true, nil)
            }
            successor?.resume(returning: nil)
            return handed
        }

        /// Ends the flight with `result` for every member.
        func finish(_ result: Result<Answer, any Error>) {
            let waiters = state.withLock { state -> [CheckedContinuation<Answer?, any Error>] in
                state.outcome = result
                state.members = 0
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result.map { Optional($0) }) }
        }

        /// The shared answer for `member`, or `nil` when the sending is handed on to it;
        /// `CancellationError` when the member is cancelled first.
        func wait(_ member: UInt64) async throws -> Answer? {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer?, any Error>) in
                    let ready = state.withLock { state -> Result<Answer?, any Error>? in
                        if let outcome = state.outcome { return outcome.map { Optional($0) } }
                        if state.left.remove(member) != nil { return .failure(CancellationError()) }
                        if state.senderWanted {
                            state.senderWanted = false
                            state.sender = member
                            return .success(nil)
                        }
                        state.waiters[member] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Answer?, any Error>? in
                    // The outcome is there: take it. Or this member sends now: it leaves through handOn.
                    guard state.outcome == nil, state.sender != member else { return nil }
                    guard let waiter = state.waiters.removeValue(forKey: member) else {
                        state.left.insert(member)  // not waiting yet (or already sending): it will see this
                        state.members -= 1
                        return nil
                    }
                    state.members -= 1
                    return waiter
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }
}
