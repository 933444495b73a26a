import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession: HTTPTransport {
    /// Sends `request` with a data task, or an upload task from the file of a body on disk; a body
    /// a middleware streamed is read into memory first.
    ///
    /// A bare `URLSession` ignores the context's limits, and on Linux it keeps
    /// swift-corelibs-foundation's traps (a 401 Basic challenge hangs, 307/308 redirects drop
    /// bodies); prefer ``URLSessionTransport``. Its tasks are made, resumed and cancelled on
    /// EndpointKit's own queue, not through `data(for:)`: on Linux that method cancels its task
    /// while the Swift runtime holds the calling task's lock, and waits there for URLSession's work
    /// queue, which may be waiting for the same lock to hand back an answer: a deadlock.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        var file: URL?
        switch body {
        case .stream(let stream) where stream.file != nil:
            file = stream.file?.url
        case .some(let body):
            request.httpBody = try await body.collect(upTo: .max)
        case nil:
            break
        }
        let call = Locked<(task: URLSessionTask?, cancelled: Bool)>((task: nil, cancelled: false))
        let calls = SessionCalls.queue(for: self)  // start and cancel, in that order, off Swift's threads
        let (data, response) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                calls.async { [request, file] in
                    // A call cancelled before its answer came reports the cancel, even when the
                    // answer won the race with it.
                    let finish: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                        if call.withLock({ $0.cancelled }) { return continuation.resume(throwing: CancellationError()) }
                        if let response, error == nil { return continuation.resume(returning: (data ?? Data(), response)) }
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                    let task = file.map { self.uploadTask(with: request, fromFile: $0, completionHandler: finish) }
                        ?? self.dataTask(with: request, completionHandler: finish)
                    // A call cancelled before its task exists sends nothing (a task that never
                    // ran must not be cancelled on Linux); one cancelled later is cancelled after
                    // this block, which resumes it first: this queue is serial.
                    guard call.withLock({ state in state.task = task; return !state.cancelled }) else {
                        return continuation.resume(throwing: CancellationError())
                    }
                    task.resume()
                }
            }
        } onCancel: {
            let task = call.withLock { state -> URLSessionTask? in
                state.cancelled = true
                return state.task
            }
            if let task { calls.async { task.cancel() } }
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (.data(data), http)
    }
}
