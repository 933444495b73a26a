import Foundation

/// A value guarded by a lock, for the little shared mutable state EndpointKit keeps.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // `lock` guards every access to `storage`.
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    /// Changes the value in place while holding the lock, returning what `body` returns.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
