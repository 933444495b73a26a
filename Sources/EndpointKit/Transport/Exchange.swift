import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state of one URLSession task: started, cancelled by the calling task, or timed out.
///
/// Cancellation can arrive before the task exists, so the first of `start` and `cancel` to run
/// decides: a task started after `cancel` is cancelled at once.
final class Exchange: @unchecked Sendable {
    /// What `finish()` reports about how the task ended.
    struct Outcome {
        let taskIdentifier: Int
        let cancelled: Bool
        let timedOut: Bool
    }

    // `lock` guards every stored property below.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var timer: DispatchWorkItem?
    private var cancelled = false
    private var timedOut = false

    /// Resumes `task`, cancelling it after `deadline` seconds unless it has finished by then.
    func start(_ task: URLSessionDataTask, deadline: TimeInterval) {
        let timer = DispatchWorkItem { [weak self] in self?.timeOut() }
        let alreadyCancelled = lock.withLock {
            self.task = task
            self.timer = timer
            return cancelled
        }
        task.resume()
        if alreadyCancelled {
            task.cancel()
        } else if deadline > 0, deadline < 7 * 24 * 3600 {
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: timer)
        }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }

    private func timeOut() {
        let task = lock.withLock {
            timedOut = true
            return self.task
        }
        task?.cancel()
    }

    /// Stops the deadline timer and reports how the task ended.
    func finish() -> Outcome {
        lock.withLock {
            timer?.cancel()
            return Outcome(taskIdentifier: task?.taskIdentifier ?? -1, cancelled: cancelled, timedOut: timedOut)
        }
    }
}
