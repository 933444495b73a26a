import Foundation

/// Coalesces progress reports to a rate a user interface can take: at most one every 50 ms, and
/// always the first and the last (the transfer complete).
///
/// A download's body arrives in chunks of a few kilobytes (about 1,000 per 50 MB); a callback for
/// each one is work for the main thread that no one sees. Reports in between are dropped, not
/// queued: the next one carries the newer count.
final class ProgressThrottle: Sendable {
    /// The shortest time between two reports.
    static let interval: UInt64 = 50_000_000

    private let report: @Sendable (TransferProgress) -> Void
    /// When the last report was made (uptime nanoseconds), `nil` before the first.
    private let last = Locked<UInt64?>(nil)

    init(_ report: @escaping @Sendable (TransferProgress) -> Void) {
        self.report = report
    }

    /// Reports `progress` if 50 ms have passed since the last report, or if it is the first or
    /// the final one: `isFinal`, or all the expected bytes.
    func callAsFunction(_ progress: TransferProgress, isFinal: Bool = false) {
        let isFinal = isFinal || progress.expected.map { progress.completed >= $0 } ?? false
        let now = DispatchTime.now().uptimeNanoseconds
        let due = last.withLock { last -> Bool in
            guard isFinal || last.map({ now &- $0 >= Self.interval }) ?? true else { return false }
            last = now
            return true
        }
        if due { report(progress) }
    }
}
