import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls in flight of a ``RequestCoalescing`` middleware, by key: the first call sends its
/// request, and every identical call that arrives while it is in flight waits for its answer.
///
/// The first call sends from its own task (a middleware's `next` cannot outlive the call), so
/// cancelling it cancels its request. If others still wait, the call is handed on: one of them
/// sends it again and the rest wait for that one. A waiting caller that is cancelled simply leaves.
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
        while true {
            let (flight, member) = flights.withLock { flights -> (Flight, UInt64?) in
                if let flight = flights[key] { return (flight, flight.join()) }
                let flight = Flight()
                flights[key] = flight
                return (flight, nil)
            }
            guard let member else {
                let result: Result<Answer, any Error>
                do { result = .success(try await send()) } catch { result = .failure(error) }
                flights.withLock { if $0[key] === flight { $0[key] = nil } }
                // A sender cancelled while others wait hands the call on rather than fail them.
                let handedOn = Task.isCancelled && (try? result.get()) == nil
                flight.finish(handedOn ? nil : result)
                return try result.get()
            }
            if let answer = try await flight.wait(member) { return answer }
        }
    }
}

extension Coalescer {
    /// One request in flight, its sender and the callers waiting for it.
    final class Flight: Sendable {
        private struct State {
            /// The shared outcome once it is there: an answer or an error, or `nil` when the
            /// sender was cancelled and the call is handed on.
            var outcome: Result<Answer, any Error>??
            var waiters: [UInt64: CheckedContinuation<Answer?, any Error>] = [:]
            /// Members cancelled before they started waiting.
            var left: Set<UInt64> = []
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

        /// Ends the flight with `result`, or with none (`nil`): each waiting member tries again.
        func finish(_ result: Result<Answer, any Error>?) {
            let waiters = state.withLock { state -> [CheckedContinuation<Answer?, any Error>] in
                state.outcome = .some(result)
                state.members = 0
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters {
                if let result { waiter.resume(with: result.map { Optional($0) }) } else { waiter.resume(returning: nil) }
            }
        }

        /// The shared answer for `member`, or `nil` when it is handed on and the member must try
        /// again; `CancellationError` when the member is cancelled first.
        func wait(_ member: UInt64) async throws -> Answer? {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer?, any Error>) in
                    let ready = state.withLock { state -> Result<Answer?, any Error>? in
                        if let outcome = state.outcome { return outcome.map { $0.map { Optional($0) } } ?? .success(nil) }
                        if state.left.remove(member) != nil { return .failure(CancellationError()) }
                        state.waiters[member] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Answer?, any Error>? in
                    guard state.outcome == nil else { return nil }  // the outcome is there: take it
                    let waiter = state.waiters.removeValue(forKey: member)
                    if waiter == nil { state.left.insert(member) }
                    state.members -= 1
                    return waiter
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }
}
