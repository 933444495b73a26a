import Foundation

/// Where ``URLSessionTransport`` makes, resumes and cancels its URLSession tasks and answers the
/// session's completion handlers: eight serial queues, each owner keeping to one.
///
/// On Linux each of those calls waits for the one work queue every session shares, which stays
/// busy for as long as libcurl's pass over a fast download takes (its reader waits while the
/// delegate is behind). Swift's tasks run on Dispatch's global pool, as many threads as the machine
/// has cores: called from a Swift task, two such waits on a two-core machine stopped every task
/// in the process, for tens of seconds under load. A concurrent dispatch queue is no way out, since
/// its blocks run on that same pool; a serial queue runs on a thread outside it. Eight let calls
/// wait side by side while bounding the threads they hold, and each exchange keeps to one, so its
/// cancel comes after its start.
enum SessionCalls {
    private static let queues = (0..<8).map { DispatchQueue(label: "EndpointKit.URLSessionTransport.calls.\($0)") }

    /// The queue of `owner` (an exchange, a task, a session), the same one each time.
    static func queue(for owner: AnyObject) -> DispatchQueue {
        queues[ObjectIdentifier(owner).hashValue & 7]
    }
}
