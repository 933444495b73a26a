import Foundation

/// Where ``URLSessionTransport`` makes, resumes and cancels its URLSession tasks and answers the
/// session's completion handlers: eight serial queues, each owner keeping to one.
///
/// Why: on Linux each of those calls waits for the work queue every session shares, which a fast
/// download keeps busy. Made from a Swift task, such a wait holds one of the few threads Swift's
/// tasks share (one per core); a concurrent queue's blocks run on those same threads, a serial
/// queue's do not. Eight queues let calls wait side by side with the threads they hold bounded,
/// and an exchange keeps to one, so that its cancel comes after its start.
enum SessionCalls {
    private static let queues = (0..<8).map { DispatchQueue(label: "EndpointKit.URLSessionTransport.calls.\($0)") }

    /// The queue of `owner` (an exchange, a task, a session), the same one each time.
    static func queue(for owner: AnyObject) -> DispatchQueue {
        queues[ObjectIdentifier(owner).hashValue & 7]
    }
}
