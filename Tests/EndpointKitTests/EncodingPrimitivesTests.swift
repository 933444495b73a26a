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

    @Test(arguments: [
        ("2024-05-01T12:30:00Z", 1_714_566_600.0),
        ("2024-05-01T12:30:00.5Z", 1_714_566_600.5),
        ("2024-05-01T12:30:00.123456Z", 1_714_566_600.123456),
        ("2024-05-01T14:30:00+02:00", 1_714_566_600.0),
        ("2024-05-01T07:30:00.250-05:00", 1_714_566_600.25),
    ])
    func `ISO-8601 dates are read with or without fractions and offsets`(text: String, seconds: Double) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test(arguments: ["2024-05-01", "yesterday", "2024-05-01T12:30:00", "2024-13-01T12:30:00Z", ""])
    func `text that is not an ISO-8601 timestamp is refused`(text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }

    @Test func `ISO-8601 dates are written in UTC like JSONEncoder writes them`() throws {
        let date = Date(timeIntervalSince1970: 1_714_566_600.75)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let json = String(decoding: try encoder.encode([date]), as: UTF8.self)
        #expect(ISO8601.string(from: date) == "2024-05-01T12:30:00Z")
        #expect(json == #"["\#(ISO8601.string(from: date))"]"#)
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
