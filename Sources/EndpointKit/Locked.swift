import Foundation

/// A value guarded by a lock, for the little shared mutable state EndpointKit keeps.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // `lock` guards every access to `storage`. (`NSLock.withLock` needs iOS 16 / macOS 13, so the
    // lock is taken by hand.)
    private let lock = NSLock()
    private var storage: Value

    package init(_ value: Value) {
        storage = value
    }

    /// Reads or replaces the value while holding the lock.
    package var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    /// Changes the value in place while holding the lock, returning what `body` returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
