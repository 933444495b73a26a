import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession task of ``URLSessionTransport``: what it has received, how it ended, and the
/// continuation of the call waiting for it. ``SessionDelegate`` feeds it.
///
/// Start, cancel, time-out and completion are decided under one lock, because URLSession on Linux
/// crashes (`TaskRegistry.swift: Trying to access a behaviour for a task that in not in the
/// registry`) when a task is cancelled before it was resumed:
/// - a call cancelled before its task starts never creates or resumes the task: nothing is sent;
/// - a task is cancelled only once it runs, and not once the delegate heard it complete. A cancel
///   that races with completion is harmless: corelibs marks the task completed before it removes it
///   from its registry, and `cancel()` ignores a completed task.
final class Exchange: Sendable {
    /// How an exchange ends.
    enum Outcome {
        case response(Data, HTTPURLResponse)
        /// A 2xx response whose body streams into the buffer (a streaming exchange).
        case stream(ChunkBuffer, HTTPURLResponse)
        /// Send this request next (a 307/308 with a body, on Linux), the redirects so far counted
        /// in `redirects`.
        case reissue(URLRequest, redirects: Int)
        case failure(any Error)
    }

    private enum Phase {
        case created, running, finished
    }

    private struct State {
        var phase = Phase.created
        var task: URLSessionTask?
        var continuation: CheckedContinuation<Outcome, Never>?
        var body = Data()
        var response: HTTPURLResponse?
        var cancelled = false
        var timedOut = false
        var tooLarge = false
        var refusal: (location: String, reason: String, response: HTTPURLResponse)?
        var reissue: URLRequest?
        /// Redirects followed for this call, this exchange's and those before it.
        var redirects: Int
        var tooManyRedirects = false
        var challenged = false
        /// Where a streaming exchange's 2xx body goes, once its head has arrived.
        var stream: ChunkBuffer?
        /// The deadline `run` was given, for the timeout's message.
        var deadline: TimeInterval = .infinity
    }

    private let state: Locked<State>
    /// The request as sent.
    package let request: URLRequest
    let uploadsFile: Bool
    let context: TransportContext
    /// Whether a 2xx answer is handed over at its head, its body streamed.
    let streams: Bool
    /// How many redirects the call may follow in all.
    let maximumRedirects: Int
    /// Where the task is made, resumed and cancelled.
    private var calls: DispatchQueue { SessionCalls.queue(for: self) }

    init(request: URLRequest, uploadsFile: Bool, context: TransportContext, streams: Bool = false, maximumRedirects: Int = 10, redirectsSoFar: Int = 0) {
        self.request = request
        self.uploadsFile = uploadsFile
        self.context = context
        self.streams = streams
        self.maximumRedirects = maximumRedirects
        state = Locked(State(redirects: redirectsSoFar))
    }

    // MARK: - The calling side

    /// Waits for the exchange: creates and resumes the task with `makeTask` unless the call was
    /// cancelled first (then no task exists and nothing is sent), and cancels it after `deadline`
    /// seconds (URLSession's resource timeout, which Linux ignores).
    ///
    /// The task is made and resumed on one of ``SessionCalls``' queues, never on the calling
    /// Swift task's thread: see there why.
    func run(deadline: TimeInterval, makeTask: @escaping @Sendable () -> URLSessionTask) async -> Outcome {
        await withCheckedContinuation { continuation in
            calls.async { [self] in
                let started = state.withLock { state -> Bool in
                    guard !state.cancelled else { return false }
                    state.deadline = deadline
                    let task = makeTask()
                    state.continuation = continuation
                    state.task = task
                    state.phase = .running
                    task.resume()
                    return true
                }
                guard started else {
                    return continuation.resume(returning: .failure(CancellationError()))
                }
                guard let nanoseconds = Seconds.nanoseconds(deadline) else { return }
                // Added after the start, so only a running exchange can time out; `complete`
                // removes it, and an exchange that completed before this line is removed at once.
                Deadlines.shared.add(self, after: nanoseconds) { [weak self] in self?.cancel(timedOut: true) }
                if state.withLock({ $0.phase == .finished }) { Deadlines.shared.remove(self) }
            }
        }
    }

    /// Cancels the exchange: the calling task was cancelled, or its deadline passed (`timedOut`).
    func cancel(timedOut: Bool = false) {
        let task = state.withLock { state -> URLSessionTask? in
            guard state.phase != .finished, !state.cancelled, !state.timedOut else { return nil }
            if timedOut { state.timedOut = true } else { state.cancelled = true }
            return state.phase == .running ? state.task : nil
        }
        // From another thread: `cancel()` waits for the session's work queue, whose callbacks may
        // be waiting for this lock, and a cancelled Swift task calls this holding its own lock,
        // which the delegate needs to resume it, so waiting here could deadlock. A task that
        // completes in the meantime is already `.completed`, which `cancel()` ignores.
        cancelElsewhere(task)
    }

    /// Stops keeping the body because it passed its size limit, and returns the task to cancel.
    private func overLimit(_ state: inout State) -> URLSessionTask? {
        state.tooLarge = true
        state.body = Data()  // stop holding what arrived: memory stays bounded
        return state.phase == .running ? state.task : nil
    }

    /// Cancels `task` on this exchange's queue of ``SessionCalls``, after its start. Called on
    /// the delegate's thread, `cancel()` would block it until libcurl finishes its pass over the
    /// socket, and every chunk read meanwhile (a whole inflating gzip body) would pile up in the
    /// delegate queue: a 4 GiB gzip bomb grew memory by 4.6 GB that way. From another thread, the
    /// delegate goes on dropping chunks as they come.
    private func cancelElsewhere(_ task: URLSessionTask?) {
        guard let task else { return }
        calls.async { task.cancel() }
    }

    // MARK: - The delegate side

    func receive(_ response: URLResponse) {
        if streams, let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) {
            return startStream(http)
        }
        let task = state.withLock { state -> URLSessionTask? in
            let http = response as? HTTPURLResponse
            state.response = http
            state.body = Data()  // a new response (after an auth round trip, say) starts afresh
            // An unencoded body announced larger than the limit is refused before it arrives.
            if let limit = context.maximumResponseSize, response.expectedContentLength > limit,
               (http?.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity") == "identity" {
                return overLimit(&state)
            }
            return nil
        }
        cancelElsewhere(task)
    }

    /// Hands a 2xx response over to the caller at its head; its body goes to a buffer that holds
    /// 1 MiB in memory and the rest, while the reader is behind, in a temporary file (up to 2 GiB).
    /// A stream has no deadline, only the idle timeout.
    private func startStream(_ response: HTTPURLResponse) {
        let buffer = ChunkBuffer(
            overflowLimit: Self.overflowLimit, idleTimeout: context.idleTimeout,
            // The buffer may stop the stream on the delegate's thread (a reader too far behind):
            // `cancel()` only marks the exchange and hands URLSession's cancel to `calls`.
            onCancel: { [weak self] in self?.cancel() })
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard !state.cancelled, !state.timedOut else { return nil }
            state.response = response
            state.stream = buffer
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let continuation else { return }
        Deadlines.shared.remove(self)
        continuation.resume(returning: .stream(buffer, response))
    }

    /// How far a stream's reader may fall behind the server before the stream fails.
    static let overflowLimit: UInt64 = 2 << 30

    /// Keeps `data` unless the body has passed its limit. `receivedSoFar` is the task's own count
    /// of body bytes, where URLSession keeps one ahead of these callbacks (Apple's; on Linux it
    /// stays 0 for data tasks and only the bytes seen here count).
    func receive(_ data: Data, receivedSoFar: Int64) {
        if let stream = state.withLock({ $0.stream }) {
            return stream.append(data)
        }
        let task = state.withLock { state -> URLSessionTask? in
            guard !state.tooLarge, !state.cancelled, !state.timedOut, state.phase == .running else { return nil }  // late bytes are dropped
            // 32-bit: a count past Int.max clamps to Int.max, which is past any limit too.
            if let limit = context.maximumResponseSize, max(state.body.count + data.count, Int(clamping: receivedSoFar)) > limit {
                return overLimit(&state)
            }
            state.body.append(data)
            return nil
        }
        cancelElsewhere(task)
    }

    /// Records what the redirect policy refused, so that completion reports it.
    func refuse(location: String, reason: String, response: HTTPURLResponse) {
        state.withLock { $0.refusal = (location, reason, response) }
    }

    func reissue(_ request: URLRequest) {
        state.withLock { $0.reissue = request }
    }

    /// Counts a redirect about to be followed (by URLSession or reissued); `false`, and the call
    /// fails with `.httpTooManyRedirects`, once there are more than ``maximumRedirects``.
    ///
    /// Counted here, in the session delegate's callback, on every platform: Apple's URLSession
    /// follows redirects itself (up to its own limit of about 16), so a count kept only where
    /// EndpointKit reissues a request would limit nothing there.
    func countRedirect() -> Bool {
        state.withLock { state in
            state.redirects += 1
            if state.redirects > maximumRedirects { state.tooManyRedirects = true }
            return !state.tooManyRedirects
        }
    }

    /// Records that an authentication challenge was declined (Linux): the 401 is the answer.
    func declineChallenge(failureResponse: HTTPURLResponse?) {
        state.withLock { state in
            state.challenged = true
            if state.response == nil { state.response = failureResponse }
        }
    }

    func complete(error: (any Error)?) {
        let (continuation, outcome, stream) = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, Outcome, ChunkBuffer?) in
            state.phase = .finished
            defer { state.continuation = nil }
            return (state.continuation, self.outcome(of: state, error: error), state.stream)
        }
        Deadlines.shared.remove(self)
        continuation?.resume(returning: outcome)
        if let stream {
            // The end of a streamed body: clean, or the reason it stopped.
            switch outcome {
            case .failure(let error): stream.finish(throwing: error)
            default: stream.finish()
            }
        }
    }

    private func outcome(of state: State, error: (any Error)?) -> Outcome {
        if let refusal = state.refusal {
            return .failure(TransportRefusal.redirect(location: refusal.location, reason: refusal.reason, response: refusal.response))
        }
        if state.tooLarge, let limit = context.maximumResponseSize {
            return .failure(TransportRefusal.tooLarge(limit: limit, response: state.response))
        }
        if state.timedOut { return .failure(URLError.timeout(after: state.deadline)) }
        if state.cancelled { return .failure(CancellationError()) }
        if state.tooManyRedirects {
            return .failure(URLError(.httpTooManyRedirects, userInfo: [
                NSLocalizedDescriptionKey: "more than \(maximumRedirects) redirects (URLSessionTransport's maximumRedirects)",
            ]))
        }
        if let next = state.reissue { return .reissue(next, redirects: state.redirects) }
        if state.challenged, let response = state.response {
            return .response(state.body, response)  // a declined challenge: the 401 with its body
        }
        if let error {
            if state.stream != nil, (error as? URLError)?.code == .cancelled {
                return .failure(CancellationError())  // the reader went away: the stream was cancelled
            }
            // libcurl reports a connection closed in the middle of a body as an unknown error.
            if let urlError = error as? URLError, urlError.code == .unknown, state.response != nil {
                return .failure(URLError(.networkConnectionLost, userInfo: [
                    NSLocalizedDescriptionKey: "the connection closed before the whole body arrived",
                    NSUnderlyingErrorKey: urlError,
                ]))
            }
            return .failure(error)
        }
        guard let response = state.response else { return .failure(URLError(.badServerResponse)) }
        if let stream = state.stream { return .stream(stream, response) }
        return .response(state.body, response)
    }
}
