@testable import EndpointKit
@testable import EndpointKitTools
import Foundation
import Testing

/// Time and number arithmetic that must hold where `Int` is 32 bits (Apple Watch, arm64_32).
@Suite struct SecondsTests {
    @Test func `deadlines are computed in UInt64 and saturate below forever`() {
        // 30 s is 3e10 ns: past Int32.max (2.1e9), where `.nanoseconds(Int(clamping:))` stopped.
        #expect(Seconds.uptime(after: 30_000_000_000, from: 5) == 30_000_000_005)
        #expect(Seconds.uptime(after: .max, from: 5) == UInt64.max - 1)
        #expect(Seconds.uptime(after: 1, from: UInt64.max - 1) == UInt64.max - 1)
        let now = DispatchTime.now().uptimeNanoseconds
        #expect(Seconds.dispatchTime(after: 30_000_000_000).uptimeNanoseconds >= now + 30_000_000_000)
    }

    @Test func `a century is the longest wait, and needs no Int past 32 bits`() {
        #expect(Seconds.nanoseconds(Seconds.century) == nil)
        #expect(Seconds.clampedNanoseconds(.infinity) == 3_153_600_000_000_000_000)
        #expect(Seconds.clampedNanoseconds(.nan) == 0)
        #expect(Seconds.clampedNanoseconds(2.5) == 2_500_000_000)
    }

    /// The exponent reader runs with `Int32`, the width of `Int` on a watch: `value * 10` past a
    /// billion trapped there.
    @Test(arguments: [
        ("400", 400), ("-12", -12), ("+3", 3), ("000000000000000000007", 7),
        ("999999999", 999_999_999), ("123456789012345678901234567890", 1_000_000_000),
        ("-99999999999999999999", -1_000_000_000),
    ])
    func `an exponent reads the same in Int32 and Int`(text: String, expected: Int) {
        let bytes = Substring(text).utf8[...]
        #expect(DecimalText.exponent(bytes, as: Int32.self).map(Int.init) == expected)
        #expect(DecimalText.exponent(bytes, as: Int.self) == expected)
    }

    @Test func `a malformed exponent is refused`() {
        for text in ["", "-", "+", "1a", "--1"] {
            #expect(DecimalText.exponent(Substring(text).utf8[...], as: Int32.self) == nil)
        }
        #expect(DecimalText("1e400")?.exponent == 400)
        #expect(DecimalText("1e99999999999999") != nil)
    }
}
