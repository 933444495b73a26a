import Foundation

/// Date and time text as RFC 3339 defines it (the internet profile of ISO 8601): what EndpointKit
/// writes in queries and headers and reads from every JSON payload.
///
/// EndpointKit's own code, not Foundation's formatters: iOS 15 to 17 parse ISO 8601 with an older
/// Foundation than macOS 15, iOS 18 and Linux (swift-foundation), which disagree on offsets and
/// long fractions, so the same server answer could decode on one device and fail on another.
/// Here it reads the same everywhere:
/// - `2024-05-01T12:30:00Z`, with `t`, `z` or a space in place of `T` and `Z` (RFC 3339 §5.6);
/// - fractional seconds of any length (`.5`, `.123456789123`; nanoseconds are kept, the rest is
///   read and dropped);
/// - an offset `+02:00` or `-05:30` (up to ±23:59) instead of `Z`, also without the colon
///   (`+0200`, as Python's `%z`, Java and Foundation's own `ISO8601FormatStyle` write it);
/// - a leap second (`23:59:60`) as the first second of the next minute.
///
/// A day that does not exist (`2023-02-29`), an hour of 24, a missing offset and anything after the
/// offset are refused.
enum RFC3339 {
    /// `2024-05-01T12:30:00Z`: UTC, whole seconds (the fraction is dropped), as `JSONEncoder`'s
    /// `.iso8601` writes it.
    static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "\(date)" }  // no calendar date: not sent by any real call
        let whole = Int64(seconds)
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = year < 0 ? "-" : ""
        text += padded(abs(year), 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
        text += padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2) + "Z"
        return text
    }

    /// Reads a payload's date (the default decoder's `dateDecodingStrategy`).
    @Sendable static func decode(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = date(from: text) {
            return date
        }
        throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "Expected an RFC 3339 date such as 2024-05-01T12:30:00Z or 2024-05-01T14:30:00.5+02:00, found \"\(text)\"."
        )
    }

    /// The date `text` spells, or `nil` when it is not an RFC 3339 date-time.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes in parse(bytes) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                index += 1
            }
            return value
        }
        func expect(_ allowed: UInt8...) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              expect(0x54, 0x74, 0x20),  // T, t or a space
              let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2)
        else { return nil }
        // A month's length is the days from its first to the next month's first.
        guard (1...12).contains(month), day >= 1,
              day <= days(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1) - days(year: year, month: month, day: 1),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        var nanoseconds = 0
        if index < bytes.count, bytes[index] == 0x2E {  // "."
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offset = 0
        if !expect(0x5A, 0x7A) {  // Z or z, else + or -
            guard index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D else { return nil }
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(0x3A)  // `+0200`, ISO 8601's basic form, as Python's %z and Java write it
            guard let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count else { return nil }
        let days = Self.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar day `days` after 1970-01-01, the inverse of ``days(year:month:day:)``.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
