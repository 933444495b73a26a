import Foundation

/// Conversions of `TimeInterval` settings that never trap, whatever the number, and that keep to
/// 64-bit arithmetic: `Int` is 32 bits on Apple Watch hardware (arm64_32), where 2^31 nanoseconds
/// are only 2.1 s.
package enum Seconds {
    /// A hundred years, the longest wait EndpointKit schedules: past it, only cancellation ends a
    /// wait.
    static let century: TimeInterval = 100 * 365 * 24 * 3600

    /// `seconds` as whole nanoseconds for `Task.sleep`, or `nil` when there is nothing to wait for
    /// (not positive, or NaN) or no limit (infinite, or 100 years or more). `UInt64(seconds * 1e9)`
    /// alone crashes past 584 years, on infinity and on NaN.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64? {
        guard seconds > 0, seconds < century else { return nil }
        return UInt64(seconds * 1_000_000_000)
    }

    /// `seconds` as nanoseconds for a wait that must happen: NaN and negative waits are 0, and
    /// anything of 100 years or more (infinity included) is 100 years, which only cancellation
    /// ends.
    package static func clampedNanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return nanoseconds(seconds) ?? UInt64(century * 1_000_000_000)
    }

    /// The Dispatch time `nanoseconds` from now, computed in `UInt64`.
    ///
    /// `.now() + .nanoseconds(Int(clamping: n))` would cap every wait at `Int.max` nanoseconds,
    /// which on a 32-bit watch is 2.1 s: a 30 s timeout would fire after 2.1 s there.
    static func dispatchTime(after nanoseconds: UInt64) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: uptime(after: nanoseconds, from: DispatchTime.now().uptimeNanoseconds))
    }

    /// `now + nanoseconds`, saturating just below `UInt64.max` (which Dispatch reads as "forever").
    static func uptime(after nanoseconds: UInt64, from now: UInt64) -> UInt64 {
        let (sum, overflow) = now.addingReportingOverflow(nanoseconds)
        return overflow || sum == .max ? .max - 1 : sum
    }

    /// What is wrong with a duration setting, or `nil` when it is usable: it must be a number of
    /// seconds zero or more (infinity meaning no limit).
    static func problem(_ seconds: TimeInterval, named name: String) -> String? {
        if seconds.isNaN { return "\(name) is NaN; give a number of seconds" }
        if seconds < 0 { return "\(name) is \(seconds); give a number of seconds zero or more" }
        return nil
    }
}
