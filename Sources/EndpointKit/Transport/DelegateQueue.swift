#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of ``URLSessionTransport`` on Linux: callbacks run one at a time, in order,
/// on a serial dispatch queue of their own, and the thread that reads the socket waits while too
/// many are pending.
///
/// URLSession on Linux hands every callback (each chunk of a body among them) to its delegate
/// queue from the thread that reads the socket, without waiting, and its default delegate queue
/// runs on the global pool, which is as wide as the machine has cores. When that pool is busy
/// with the app's other work, the delegate starts late and chunks pile up: in the test suite on a
/// loaded machine, a 1 GB body announced as too large grew memory by 360–950 MB before the
/// delegate even saw its headers. A queue of its own keeps the delegate running, and holding the
/// reader back keeps unread bytes in the socket, where TCP slows the sender.
///
/// Callbacks go straight to the dispatch queue, not through `OperationQueue`'s operations (an
/// object, a lock and change notifications each): that machinery cost about 7,000 instructions a
/// callback, and a call has at least three. They do not run on the reading thread itself: that
/// thread is the work queue every session shares, and a callback there that resumes a waiting call
/// could deadlock with a cancellation that holds the call's task and waits for that queue.
///
/// The reader waits at most `patience` for a slot, so a callback that waits for the reading
/// thread could slow it down but never deadlock it; EndpointKit's own callbacks never wait for it
/// (cancels and completion handlers run on another queue). Apple's URLSession needs none of this.
final class DelegateQueue: OperationQueue, @unchecked Sendable {
    // `slots` is a semaphore and `thread` a dispatch queue, both safe from any thread; the class
    // has no other state.
    private let slots: DispatchSemaphore
    private let patience: DispatchTimeInterval
    private let thread = DispatchQueue(label: "EndpointKit.URLSessionTransport.delegate")
    /// Set on `thread`, so that a callback that hands over another never waits for a slot.
    private static let onDelegateThread = DispatchSpecificKey<Bool>()

    /// - Parameters:
    ///   - capacity: How many callbacks may wait before the reader waits (64 chunks of 16 KiB).
    ///   - patience: The longest the reader waits for one slot.
    init(capacity: Int = 64, patience: DispatchTimeInterval = .milliseconds(10)) {
        slots = DispatchSemaphore(value: capacity)
        self.patience = patience
        super.init()
        maxConcurrentOperationCount = 1  // for any callback that still comes as an `Operation`
        name = "EndpointKit.URLSessionTransport.delegate"
        underlyingQueue = thread
        thread.setSpecific(key: Self.onDelegateThread, value: true)
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let holdsSlot = DispatchQueue.getSpecific(key: Self.onDelegateThread) != true
            && slots.wait(timeout: .now() + patience) == .success
        thread.async { [slots] in
            block()
            if holdsSlot { slots.signal() }
        }
    }
}
#endif
