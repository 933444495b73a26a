import Foundation

/// Conversions of `TimeInterval` settings that never trap, whatever the number.
package enum Seconds {
    /// `seconds` as whole nanoseconds for `Task.sleep`, or `nil` when there is nothing to wait for
    /// (not positive, or NaN) or no limit (infinite, or 100 years or more). `UInt64(seconds * 1e9)`
    /// alone crashes past 584 years, on infinity and on NaN.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64? {
        guard seconds > 0, seconds < 100 * 365 * 24 * 3600 else { return nil }
        return UInt64(seconds * 1_000_000_000)
    }

    /// `seconds` as nanoseconds for a wait that must happen: NaN and negative waits are 0, and
    /// anything of 100 years or more (infinity included) is 100 years, which only cancellation
    /// ends.
    package static func clampedNanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return nanoseconds(seconds) ?? UInt64(100 * 365 * 24 * 3600) * 1_000_000_000
    }

    /// What is wrong with a duration setting, or `nil` when it is usable: it must be a number of
    /// seconds zero or more (infinity meaning no limit).
    static func problem(_ seconds: TimeInterval, named name: String) -> String? {
        if seconds.isNaN { return "\(name) is NaN; give a number of seconds" }
        if seconds < 0 { return "\(name) is \(seconds); give a number of seconds zero or more" }
        return nil
    }
}
