import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state of one URLSession task: started, cancelled by the calling task, or timed out.
///
/// Cancellation can arrive before the task exists, so the first of `start` and `cancel` to run
/// decides: a task started after `cancel` is cancelled at once.
final class Exchange: Sendable {
    /// How the task ended, as `finish()` reports it.
    struct Outcome {
        var taskIdentifier = -1
        var cancelled = false
        var timedOut = false
    }

    private struct State: Sendable {
        var task: URLSessionDataTask?
        var timer: Task<Void, Never>?
        var finished = false
        var outcome = Outcome()
    }

    private let state = Locked(State())

    /// Resumes `task`, cancelling it after `deadline` seconds unless it has finished by then.
    /// A deadline of 7 days or more (URLSession's default) sets no timer.
    func start(_ task: URLSessionDataTask, deadline: TimeInterval) {
        let alreadyCancelled = state.withLock {
            $0.task = task
            $0.outcome.taskIdentifier = task.taskIdentifier
            return $0.outcome.cancelled
        }
        task.resume()
        if alreadyCancelled {
            task.cancel()
        } else if deadline > 0, deadline < 7 * 24 * 3600 {
            let timer = Task { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(deadline * 1_000_000_000))
                if !Task.isCancelled { self?.stop(timedOut: true) }
            }
            let finished = state.withLock {
                $0.timer = timer
                return $0.finished
            }
            if finished { timer.cancel() }
        }
    }

    /// Cancels the task because the calling task was cancelled.
    func cancel() {
        stop(timedOut: false)
    }

    private func stop(timedOut: Bool) {
        let task = state.withLock {
            if timedOut { $0.outcome.timedOut = true } else { $0.outcome.cancelled = true }
            return $0.task
        }
        task?.cancel()
    }

    /// Stops the deadline timer and reports how the task ended.
    func finish() -> Outcome {
        state.withLock {
            $0.finished = true
            $0.timer?.cancel()
            return $0.outcome
        }
    }
}
