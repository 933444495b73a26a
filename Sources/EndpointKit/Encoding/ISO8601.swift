import Foundation

/// ISO-8601 date text, as EndpointKit reads and writes it.
enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `2024-05-01T12:30:00Z`: UTC, whole seconds, as `JSONEncoder`'s `.iso8601` writes it.
    static func string(from date: Date) -> String {
        whole.format(date)
    }

    /// Reads a date with or without fractional seconds, in UTC or with an offset.
    @Sendable static func decode(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = date(from: text) {
            return date
        }
        throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "Expected an ISO-8601 date such as 2024-05-01T12:30:00Z, found \"\(text)\"."
        )
    }

    static func date(from text: String) -> Date? {
        let style = text.contains(".") ? fractional : whole
        return try? style.parse(text)
    }
}
