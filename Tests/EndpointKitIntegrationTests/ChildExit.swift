// The children run as `Process`es, which exist on macOS and Linux only.
#if os(macOS) || os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Waits for the child to end and returns its exit status (128 + the signal for one a signal
    /// ended, as a shell says).
    ///
    /// Foundation's `waitUntilExit()` alone was seen waiting for ever on Linux: the child had
    /// exited and stayed a zombie, never reaped, and Foundation never noticed (four tests of one
    /// run hung so, each on a child that was done). So this waits for Foundation, and when the
    /// child has been a zombie for a second without Foundation seeing it, reaps it here.
    func waitForExit() -> Int32 {
        let pid = processIdentifier
        var zombieSince: Date?
        while isRunning {
            if Self.isZombie(pid) {
                let since = zombieSince ?? Date()
                zombieSince = since
                var status: Int32 = 0
                if Date().timeIntervalSince(since) > 1, waitpid(pid, &status, WNOHANG) == pid {
                    let signal = status & 0x7F
                    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
                }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return terminationStatus
    }

    /// Whether `pid` has exited and waits to be reaped (Linux's `/proc/PID/stat` state `Z`).
    private static func isZombie(_ pid: Int32) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first == "Z"
        #else
        return false
        #endif
    }
}
#endif
