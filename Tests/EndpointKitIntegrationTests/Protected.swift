// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import Foundation

/// A value behind a lock, for the suite's own state. The suite uses EndpointKit's public API only
/// (the `EndpointKitAsyncHTTPClient` package compiles it too), so it has its own.
///
/// `@unchecked Sendable`: every access to `value` holds `lock`.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// The value now; setting it replaces it whole.
    var current: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif
