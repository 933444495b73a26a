import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an answer's rate-limit headers say about the server's remaining budget.
///
/// It reads the spellings in common use:
/// - GitHub's (and many others'): `X-RateLimit-Remaining` and `X-RateLimit-Reset`, the reset as
///   Unix seconds (or as seconds from now, when the number is too small to be a date);
/// - OpenAI's: `x-ratelimit-remaining-requests` and `x-ratelimit-reset-requests`, the reset as a
///   duration such as `1s`, `6m0s` or `20ms`;
/// - the IETF's RateLimit header fields: `RateLimit: "default";r=0;t=30` (draft 8 and later), the
///   older `RateLimit: limit=100, remaining=0, reset=30`, and `RateLimit-Remaining` with
///   `RateLimit-Reset` in seconds;
/// - `Retry-After` on a 429 or 503 answer, in seconds or as an HTTP date.
///
/// A value that is negative or not a number is ignored; a reset further away than the caller's
/// limit is cut to it, however many digits it has (400 digits are a reset at the limit, not an
/// unreadable value).
package struct RateLimitHeaders: Equatable, Sendable {
    /// Requests left in the current window, when the answer says.
    package var remaining: Int?
    /// Seconds until the window resets (or until the server accepts requests again), when the
    /// answer says; at most the limit it was read with.
    package var reset: TimeInterval?

    /// The budget `response` announces, read at `now`, with resets cut to `longestReset` seconds.
    package init(_ response: HTTPURLResponse, now: Date = Date(), longestReset: TimeInterval) {
        func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
        var remaining: Int?
        var reset: TimeInterval?
        func take(_ count: Int?, _ seconds: TimeInterval?) {
            // The smallest remaining budget wins; with it, the latest reset.
            if let count, remaining.map({ count < $0 }) ?? true {
                remaining = count
                reset = seconds
            } else if let count, count == remaining, let seconds {
                reset = max(reset ?? 0, seconds)
            }
        }
        take(header("X-RateLimit-Remaining").flatMap(Self.count),
             header("X-RateLimit-Reset").flatMap { Self.unixOrDelta($0, now: now) })
        take(header("x-ratelimit-remaining-requests").flatMap(Self.count),
             header("x-ratelimit-reset-requests").flatMap(Self.duration))
        take(header("RateLimit-Remaining").flatMap(Self.count), header("RateLimit-Reset").flatMap(Self.seconds))
        if let field = header("RateLimit") {
            for item in Self.items(of: field) { take(item.remaining, item.reset) }
        }
        if response.statusCode == 429 || response.statusCode == 503,
           let after = header("Retry-After"), let seconds = RetryPolicy.retryAfter(after, now: now) {
            remaining = 0
            reset = max(reset ?? 0, seconds)
        }
        self.remaining = remaining
        self.reset = reset.map { min($0, longestReset) }
    }

    package init(remaining: Int?, reset: TimeInterval?) {
        self.remaining = remaining
        self.reset = reset
    }

    // MARK: - Values

    /// A count of requests: digits only.
    static func count(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int(trimmed) ?? .max  // more digits than an Int holds: plenty left
    }

    /// A number of seconds, zero or more: digits with at most one point. Too many digits for a
    /// `Double` read as infinity, which the caller cuts to its longest reset.
    static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed), !value.isNaN, value >= 0,
              trimmed.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: ".") }) else { return nil }
        return value
    }

    /// GitHub's reset: Unix seconds, or seconds from now when the number is too small to be a
    /// date (before 2001).
    static func unixOrDelta(_ text: String, now: Date) -> TimeInterval? {
        guard let value = seconds(text) else { return nil }
        return value > 1_000_000_000 ? max(value - now.timeIntervalSince1970, 0) : value
    }

    /// OpenAI's durations: `1s`, `6m0s`, `1h2m3.5s`, `20ms`.
    static func duration(_ text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var number = ""
        var sawUnit = false
        var characters = Substring(text.trimmingCharacters(in: .whitespaces))
        while let character = characters.first {
            characters.removeFirst()
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number), !value.isNaN else { return nil }  // too many digits: infinity
            switch character {
            case "h": total += value * 3600
            case "m" where characters.first == "s":
                characters.removeFirst()
                total += value / 1000
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty else { return sawUnit ? nil : seconds(number) }
        return sawUnit ? total : nil
    }

    /// The items of a `RateLimit` field: `"name";r=0;t=30` items (draft 8 and later), or one
    /// item of the older `limit=…, remaining=…, reset=…` form.
    static func items(of field: String) -> [(remaining: Int?, reset: TimeInterval?)] {
        let parts = field.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let older = parts.contains(where: { $0.hasPrefix("remaining=") || $0.hasPrefix("reset=") })
        let items = older ? [parts] : parts.map { $0.split(separator: ";").dropFirst().map(String.init) }
        return items.map { parameters in
            var remaining: Int?
            var reset: TimeInterval?
            for parameter in parameters {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                if pair[0] == (older ? "remaining" : "r") { remaining = count(pair[1]) }
                if pair[0] == (older ? "reset" : "t") { reset = seconds(pair[1]) }
            }
            return (remaining, reset)
        }
    }
}
