#if os(macOS) || os(Linux)
import Foundation

/// A time after which a child process the tests started is stopped, so that a child that hangs
/// (a Python client, the test binary run as a server) fails its test with what it printed instead
/// of holding the test run until CI's own limit.
///
/// Reads of the child's pipes end when it is stopped: the test then reports the partial output.
/// The deadlines are minutes, against runs of seconds: they end a hang, never a slow run.
final class ChildDeadline: @unchecked Sendable {
    // `process` is only read for its identifier and whether it runs, which any thread may do.
    private let process: Process
    private let expired = Protected(false)
    private let disarmed = Protected(false)

    /// Stops `process` if it still runs `seconds` from now: with SIGKILL, since a child inherits
    /// the blocked signals of the thread that started it, and the test process's worker threads
    /// block nearly all (the MCP client's SigBlk: fffffffe3bfbea27, SIGTERM among them), so that
    /// `terminate()` stays pending for ever in such a Python child.
    init(_ process: Process, seconds: Double) {
        self.process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self, !self.disarmed.current, self.process.isRunning else { return }
            self.expired.current = true
            kill(self.process.processIdentifier, SIGKILL)
        }
    }

    /// Lets the process run on: it did what it had to in time (a server that is now ready).
    func disarm() {
        disarmed.current = true
    }

    /// Whether the deadline stopped the process: what a test says when its output is cut short.
    var stoppedTheChild: Bool { expired.current }
}
#endif
