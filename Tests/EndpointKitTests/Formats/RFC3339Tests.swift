@testable import EndpointKit
import Foundation
import Testing

/// EndpointKit's own RFC 3339 reader and writer: the same answers on every OS.
@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("2024-05-01T12:30:00Z", 1_714_566_600.0),
        ("2024-05-01t12:30:00z", 1_714_566_600.0),
        ("2024-05-01 12:30:00Z", 1_714_566_600.0),
        ("2024-05-01T12:30:00.5Z", 1_714_566_600.5),
        ("2024-05-01T12:30:00.25Z", 1_714_566_600.25),
        ("2024-05-01T14:30:00+02:00", 1_714_566_600.0),
        ("2024-05-01T07:30:00.250-05:00", 1_714_566_600.25),
        ("2024-05-01T18:15:00+05:45", 1_714_566_600.0),     // Nepal
        ("2024-05-01T14:30:00+0200", 1_714_566_600.0),      // without the colon, as Python's %z writes
        ("2024-05-01T00:00:00-23:59", 1_714_607_940.0),     // the largest offset
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),           // a leap day
        ("2000-02-29T00:00:00Z", 951_782_400.0),             // divisible by 400: a leap year
        ("1969-12-31T23:59:59Z", -1.0),
        ("1900-01-01T00:00:00Z", -2_208_988_800.0),
        ("0001-01-01T00:00:00Z", -62_135_596_800.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
        ("2016-12-31T23:59:60Z", 1_483_228_800.0),           // a leap second: the next minute's first
    ])
    func `dates are read with any of RFC 3339's spellings`(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.date(from: text))
        #expect(date.timeIntervalSince1970 == seconds)
    }

    @Test func `a fraction of any length keeps nanoseconds and drops the rest`() throws {
        let long = try #require(RFC3339.date(from: "2024-05-01T12:30:00.123456789123456Z"))
        let nine = try #require(RFC3339.date(from: "2024-05-01T12:30:00.123456789Z"))
        #expect(long == nine)
        #expect(abs(nine.timeIntervalSince1970 - 1_714_566_600.123456789) < 1e-6)
        let one = try #require(RFC3339.date(from: "1970-01-01T00:00:00.000000001Z"))
        #expect(one == Date(timeIntervalSince1970: 1e-9))
    }

    @Test(arguments: [
        "", "2024-05-01", "yesterday", "2024-05-01T12:30:00", "2024-05-01T12:30Z", "2024-05-01T12:30:00.Z",
        "2024-13-01T12:30:00Z", "2024-00-01T12:30:00Z", "2023-02-29T12:30:00Z", "2100-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z", "2024-05-00T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z",
        "2024-05-01T12:30:61Z", "2024-05-01T12:30:00+24:00", "2024-05-01T12:30:00+02:60", "2024-05-01T12:30:00+2:00",
        "2024-05-01T12:30:00+02", "2024-05-01T12:30:00Z ", " 2024-05-01T12:30:00Z", "2024-05-01T12:30:00ZZ",
        "24-05-01T12:30:00Z", "2024-5-1T12:30:00Z", "2024/05/01T12:30:00Z", "2024-05-01X12:30:00Z",
        "２０２４-05-01T12:30:00Z", "2024-05-01T12:30:00\u{0}Z",
    ])
    func `text that is not an RFC 3339 date-time is refused`(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test func `dates are written in UTC, whole seconds, exactly as JSONEncoder's iso8601 writes them`() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var generator = SplitMix64(seed: 3339)
        var dates = [0, -1, 1_714_566_600.75, -0.25, 951_782_400, 4_102_444_800, -2_208_988_800].map(Date.init(timeIntervalSince1970:))
        for _ in 0..<2_000 {
            // 1800 to 2200, with fractions.
            dates.append(Date(timeIntervalSince1970: Double(Int64(generator.next() % 12_600_000_000) - 5_364_662_400) + Double(generator.next() % 1000) / 1000))
        }
        for date in dates {
            let json = String(decoding: try encoder.encode([date]), as: UTF8.self)
            #expect(json == #"["\#(RFC3339.string(from: date))"]"#, "\(date.timeIntervalSince1970)")
            let whole = date.timeIntervalSince1970.rounded(.down)
            #expect(RFC3339.date(from: RFC3339.string(from: date))?.timeIntervalSince1970 == whole)
        }
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_714_566_600.75)) == "2024-05-01T12:30:00Z")
    }

    @Test func `what this Foundation reads as ISO 8601, RFC 3339 reads as the same instant`() throws {
        var generator = SplitMix64(seed: 8601)
        let offsets = ["Z", "+00:00", "+02:00", "-05:30", "+14:00", "-12:00"]
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(Int64(generator.next() % 4_000_000_000)))
            let offset = offsets[Int(generator.next() % UInt64(offsets.count))]
            // RFC 3339's colon, or Foundation's own default without it.
            var style = Date.ISO8601FormatStyle(timeZoneSeparator: generator.next() % 2 == 0 ? .colon : .omitted)
            if offset != "Z" {
                let sign = offset.hasPrefix("-") ? -1 : 1
                let parts = offset.dropFirst().split(separator: ":").compactMap { Int($0) }
                style.timeZone = TimeZone(secondsFromGMT: sign * (parts[0] * 3600 + parts[1] * 60))!
            }
            let text = style.format(date)
            let foundation = try style.parse(text)
            #expect(RFC3339.date(from: text) == foundation, "\(text)")
        }
    }

    @Test func `a payload's date that is not RFC 3339 fails naming the text and a valid form`() throws {
        struct Payload: Decodable { let at: Date }
        let error = try #require(throws: DecodingError.self) {
            try APIServer.makeDecoder().decode(Payload.self, from: Data(#"{"at":"2023-02-29T12:00:00Z"}"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
        #expect(context.debugDescription.contains("2023-02-29T12:00:00Z"))
        #expect(context.debugDescription.contains("RFC 3339"))
        #expect(context.codingPath.map(\.stringValue) == ["at"])
    }
}
