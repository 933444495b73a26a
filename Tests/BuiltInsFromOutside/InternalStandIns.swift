// The linked file was written inside the module, so it has no `import EndpointKit` of its own:
// imported here for every file of this target.
@_exported import EndpointKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What `Throttle.swift` and `RetryPolicy.swift` (linked here unchanged from the library) use
// besides EndpointKit's public API: a few small helpers that are internal to EndpointKit. Each is
// rebuilt here from Foundation, Dispatch and public API, so the files compile outside the module
// as any app's middleware would.

/// A value behind a lock (EndpointKit's is a `pthread_mutex_t`).
///
/// `@unchecked Sendable`: every access to `value` holds `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Seconds as Dispatch's nanoseconds.
enum Seconds {
    /// `seconds` as nanoseconds, `nil` for none, a negative or NaN time, or 100 years or more.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64? {
        guard seconds > 0, seconds < 100 * 365 * 86_400 else { return nil }
        return UInt64(seconds * 1_000_000_000)
    }

    /// `nanoseconds` from now, saturating below `.max` (which Dispatch reads as "forever").
    static func dispatchTime(after nanoseconds: UInt64) -> DispatchTime {
        let (sum, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(nanoseconds)
        return DispatchTime(uptimeNanoseconds: overflow || sum == .max ? .max - 1 : sum)
    }

    /// `seconds` as nanoseconds for `Task.sleep`: zero for none or less, 100 years at most.
    static func clampedNanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return nanoseconds(seconds) ?? 100 * 365 * 86_400 * 1_000_000_000
    }

    /// What is wrong with `seconds` as a setting called `name`, or `nil`.
    static func problem(_ seconds: TimeInterval, named name: String) -> String? {
        seconds.isNaN || seconds < 0 ? "\(name) is \(seconds); give a number of seconds zero or more" : nil
    }
}

/// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), as `Retry-After` may carry one.
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}

/// The queue timers run on.
enum Deadlines {
    static let cancellations = DispatchQueue(label: "BuiltInsFromOutside.timers", attributes: .concurrent)
}

extension URLError {
    /// The timeout error, as EndpointKit words it.
    static func timeout(after seconds: TimeInterval, while doing: String) -> URLError {
        URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "the timeout of \(seconds) s passed while \(doing)"])
    }
}

extension EndpointError {
    /// A middleware configured so that it cannot work, as an `.invalidRequest` naming the call.
    static func unusable(_ middleware: String, _ problem: String, request: URLRequest) -> EndpointError {
        let path = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedPath } ?? ""
        return EndpointError(
            kind: .invalidRequest, route: "\(request.httpMethod ?? "GET") \(path)",
            reason: "the \(middleware) cannot be used: \(problem)", request: request)
    }
}
