import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Paces a server's requests on the client: at most `requests` per `interval`, and at most
/// `maximumInFlight` at once.
///
/// Calls beyond the pace wait in a queue and leave it in the order they arrived. A queued call
/// that is cancelled leaves the queue at once and sends nothing.
///
/// The time a call waits in the queue counts toward its timeout (``APIServer/timeout`` or the
/// endpoint's ``Endpoint/timeout``): the deadline runs from the call, not from the moment its
/// request leaves. A call that cannot leave in time fails with a timeout. A call that leaves late
/// has only the time that remains for its exchange.
///
/// ```swift
/// server.middlewares = [Throttle(requests: 10, per: 1, maximumInFlight: 4)]
/// ```
///
/// Each attempt counts. Place the throttle after a ``RetryPolicy`` so that retries are paced too,
/// and before authorization, so that a token is not fetched for a request that must still wait.
/// A request is in flight until its answer's head arrives; a streamed body does not hold a place.
/// One throttle paces every server whose ``APIServer/middlewares`` hold it.
public struct Throttle: EndpointMiddleware {
    /// How many requests may start within any `interval`; `nil` for no limit.
    public let requests: Int?
    /// The window, in seconds, that `requests` counts in.
    public let interval: TimeInterval
    /// How many requests may wait for their answer at once; `nil` for no limit.
    public let maximumInFlight: Int?
    private let gate: Gate

    /// A throttle of `requests` per `interval` seconds, and at most `maximumInFlight` at once.
    ///
    /// ```swift
    /// let throttle = Throttle(requests: 5000, per: 3600)  // GitHub's hourly budget, spread out
    /// ```
    public init(requests: Int, per interval: TimeInterval, maximumInFlight: Int? = nil) {
        self.requests = requests
        self.interval = interval
        self.maximumInFlight = maximumInFlight
        gate = Gate(requests: requests, interval: interval, maximumInFlight: maximumInFlight)
    }

    /// A throttle that only bounds how many requests are in flight at once.
    ///
    /// ```swift
    /// let throttle = Throttle(maximumInFlight: 2)
    /// ```
    public init(maximumInFlight: Int) {
        requests = nil
        interval = 0
        self.maximumInFlight = maximumInFlight
        gate = Gate(requests: nil, interval: 0, maximumInFlight: maximumInFlight)
    }

    /// Waits for the request's turn, then sends it with the time that remains of its timeout.
    ///
    /// - Throws: ``EndpointError/Kind/invalidRequest`` for a limit below 1 or an interval that is
    ///   negative, NaN or infinite; `CancellationError` when the call is cancelled in the queue;
    ///   `URLError(.timedOut)` when its timeout passes in the queue.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        if let problem = configurationProblem {
            throw EndpointError.unusable("Throttle", problem, request: request)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let timeout = context.timeRemaining
        let queued = try await gate.enter(timeout: timeout)
        defer { gate.leave() }
        guard queued, let timeout else { return try await next(request, body) }
        let waited = TimeInterval(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return try await next.withTimeRemaining(max(timeout - waited, 0.001))(request, body)
    }

    /// How many calls wait in this throttle's queue now: for a busy indicator, a log or a test.
    ///
    /// ```swift
    /// let throttle = Throttle(requests: 10, per: 1)
    /// print("\(throttle.queued) calls wait for their turn")
    /// ```
    public var queued: Int { gate.queued }

    private var configurationProblem: String? {
        if let requests, requests < 1 { return "requests is \(requests); give 1 or more" }
        if let maximumInFlight, maximumInFlight < 1 { return "maximumInFlight is \(maximumInFlight); give 1 or more" }
        if requests != nil, !interval.isFinite || interval < 0 {
            return "interval is \(interval); give a finite number of seconds zero or more"
        }
        return nil
    }
}

extension Throttle {
    /// The queue and the counts, shared by every copy of one throttle.
    final class Gate: Sendable {
        private struct Waiter {
            let id: UInt64
            let continuation: CheckedContinuation<Void, any Error>
        }

        private struct State {
            /// When the last `requests` requests started, oldest first (uptime nanoseconds).
            var starts: [UInt64] = []
            var inFlight = 0
            var waiters: [Waiter] = []
            /// Calls given a number but not queued yet.
            var arriving: Set<UInt64> = []
            /// Those of them cancelled or timed out before they queued.
            var abandoned: [UInt64: any Error] = [:]
            var nextID: UInt64 = 0
            /// The uptime at which a wake-up is scheduled, if any.
            var wakeUpAt: UInt64?
        }

        private let requests: Int?
        private let window: UInt64
        private let maximumInFlight: Int?
        private let state = Locked(State())

        init(requests: Int?, interval: TimeInterval, maximumInFlight: Int?) {
            self.requests = requests
            window = Seconds.nanoseconds(interval) ?? 0
            self.maximumInFlight = maximumInFlight
        }

        var queued: Int { state.withLock { $0.waiters.count } }

        /// Returns when the caller may send, and whether it waited in the queue; throws when it is
        /// cancelled, or its timeout passes, first.
        func enter(timeout: TimeInterval?) async throws -> Bool {
            let id = state.withLock { state -> UInt64? in
                let now = DispatchTime.now().uptimeNanoseconds
                if state.waiters.isEmpty, delay(in: state, now: now) == 0 {
                    take(&state, now: now)
                    return nil
                }
                state.nextID += 1
                state.arriving.insert(state.nextID)
                return state.nextID
            }
            guard let id else { return false }
            var timer: DispatchWorkItem?
            if let timeout, let nanoseconds = Seconds.nanoseconds(timeout) {
                let item = DispatchWorkItem { [self] in
                    abandon(id, with: URLError.timeout(after: timeout, while: "waiting in the Throttle's queue"))
                }
                Deadlines.cancellations.asyncAfter(deadline: Seconds.dispatchTime(after: nanoseconds), execute: item)
                timer = item
            }
            defer { timer?.cancel() }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let early = state.withLock { state -> (any Error)? in
                        state.arriving.remove(id)
                        if let error = state.abandoned.removeValue(forKey: id) { return error }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                    if let early { continuation.resume(throwing: early) } else { pump() }
                }
            } onCancel: {
                abandon(id, with: CancellationError())
            }
            return true
        }

        /// A request has its answer's head (or failed): its place in flight is free.
        func leave() {
            state.withLock { $0.inFlight -= 1 }
            pump()
        }

        /// Takes the waiter `id` out of the queue with `error`, or notes the error for when it
        /// queues.
        private func abandon(_ id: UInt64, with error: any Error) {
            let removed = state.withLock { state -> Waiter? in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                if state.arriving.contains(id) { state.abandoned[id] = error }  // else it has left already
                return nil
            }
            removed?.continuation.resume(throwing: error)
            if removed != nil { pump() }  // the next in line may be free to go now
        }

        /// Lets waiters go, first come first served, while the pace allows; schedules a wake-up
        /// for when the window lets the next one go.
        private func pump() {
            var ready: [Waiter] = []
            var wakeUp: UInt64?
            state.withLock { state in
                let now = DispatchTime.now().uptimeNanoseconds
                while let first = state.waiters.first {
                    let delay = delay(in: state, now: now)
                    guard delay == 0 else {
                        // Waiting for the window (not for a place in flight, which `leave` frees).
                        if delay != .max, state.wakeUpAt.map({ $0 > now + delay }) ?? true {
                            state.wakeUpAt = now + delay
                            wakeUp = delay
                        }
                        break
                    }
                    state.waiters.removeFirst()
                    take(&state, now: now)
                    ready.append(first)
                }
            }
            for waiter in ready { waiter.continuation.resume() }
            if let wakeUp {
                Deadlines.cancellations.asyncAfter(deadline: Seconds.dispatchTime(after: wakeUp)) { [self] in
                    state.withLock { $0.wakeUpAt = nil }
                    pump()
                }
            }
        }

        /// Nanoseconds until one more request may start: 0 for now, `.max` while every place in
        /// flight is taken.
        private func delay(in state: State, now: UInt64) -> UInt64 {
            if let maximumInFlight, state.inFlight >= maximumInFlight { return .max }
            guard let requests, state.starts.count >= requests, let oldest = state.starts.first else { return 0 }
            let opens = oldest + window
            return opens > now ? opens - now : 0
        }

        private func take(_ state: inout State, now: UInt64) {
            state.inFlight += 1
            guard let requests else { return }
            state.starts.append(now)
            if state.starts.count > requests { state.starts.removeFirst(state.starts.count - requests) }
        }
    }
}
