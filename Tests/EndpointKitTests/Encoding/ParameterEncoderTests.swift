@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing

/// The small pieces the request builder relies on, checked against Foundation where it has an
/// equivalent.
@Suite struct EncodingPrimitivesTests {
    @Test func `percent-encoding round-trips through Foundation's decoder`() throws {
        var generator = SplitMix64(seed: 42)
        let pieces = ["a", "Z", "0", "-", ".", "_", "~", " ", "+", "&", "=", "#", "%", "/", "?", "é", "🎉", "\u{0}", "\n", "[", "]"]
        for _ in 0..<2_000 {
            let value = (0..<Int(generator.next() % 10)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let encoded = PercentEncoding.encode(value)
            #expect(encoded.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "%") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
                    || (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            })
            #expect(encoded.removingPercentEncoding == value)
        }
    }
}

/// A small seeded generator, so generated cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
