import Foundation

/// The deadlines of running exchanges, behind one Dispatch timer.
///
/// A Dispatch timer per call (a work item armed with `asyncAfter`, then cancelled) cost about
/// 20,000 instructions a call, more than a sixth of a small exchange over loopback. Here a call adds
/// its deadline to a table and removes it when it finishes, a few hundred instructions; the one
/// timer is re-armed only when a deadline earlier than every other arrives. Calls with the same
/// timeout arrive in deadline order, so in steady traffic it fires about once per timeout period,
/// finds what expired, and sets itself for the earliest deadline left.
///
/// A Dispatch timer, not a sleeping Task: a deadline must fire even when work elsewhere in the app
/// keeps every thread of the cooperative pool busy.
final class Deadlines: @unchecked Sendable {
    // `lock` guards `entries` and `armedFor`; `timer` is only scheduled under it.
    static let shared = Deadlines()

    /// Where deadlines fire and paced calls wake: blocks that only change state and hand work on.
    /// A concurrent queue runs on Dispatch's global pool, which Swift's tasks share on Linux, so
    /// nothing here may wait: URLSession's calls, which wait for its work queue, go to the
    /// transport's own serial queues.
    static let cancellations = DispatchQueue(label: "EndpointKit.deadlines", attributes: .concurrent)

    private struct Entry {
        let deadline: UInt64
        let expire: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The deadline the timer is set for, in uptime nanoseconds; `.max` when it is idle.
    private var armedFor = UInt64.max
    private let timer: any DispatchSourceTimer

    init(queue: DispatchQueue = Deadlines.cancellations) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Calls `expire` (on the timer's queue) `nanoseconds` from now, unless `owner` is removed
    /// first. An owner has at most one deadline.
    func add(_ owner: AnyObject, after nanoseconds: UInt64, expire: @escaping @Sendable () -> Void) {
        let deadline = Seconds.uptime(after: nanoseconds, from: DispatchTime.now().uptimeNanoseconds)
        lock.lock()
        entries[ObjectIdentifier(owner)] = Entry(deadline: deadline, expire: expire)
        if deadline < armedFor { arm(for: deadline) }
        lock.unlock()
    }

    /// Forgets the deadline of `owner`, if it has one.
    func remove(_ owner: AnyObject) {
        lock.lock()
        entries.removeValue(forKey: ObjectIdentifier(owner))
        lock.unlock()
    }

    /// Whether `owner` has a deadline pending, for tests.
    func isPending(_ owner: AnyObject) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return entries[ObjectIdentifier(owner)] != nil
    }

    /// Runs what expired and sets the timer for the earliest deadline left.
    private func fire() {
        lock.lock()
        let now = DispatchTime.now().uptimeNanoseconds
        var expired: [Entry] = []
        var earliest = UInt64.max
        for (owner, entry) in entries {
            if entry.deadline <= now {
                expired.append(entry)
                entries.removeValue(forKey: owner)
            } else {
                earliest = min(earliest, entry.deadline)
            }
        }
        armedFor = .max
        if earliest != .max { arm(for: earliest) }
        lock.unlock()
        // Outside the lock, as expiring may take a while; in deadline order when the timer was late.
        for entry in expired.sorted(by: { $0.deadline < $1.deadline }) { entry.expire() }
    }

    /// Sets the timer; the lock is held.
    private func arm(for deadline: UInt64) {
        armedFor = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
    }
}
