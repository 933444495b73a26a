import Foundation

/// How a stream of Server-Sent Events reconnects after its connection drops, as a browser's
/// `EventSource` does: the request is sent again with `Last-Event-ID`, after the delay the server
/// asked for with `retry:` or an exponential backoff with jitter.
///
/// A stream reconnects when the connection fails or the server closes it without a terminal event
/// (see ``StreamingOptions/terminalData``). It gives up, throwing the last error, after
/// `maximumAttempts` reconnections in a row that bring no event; an answer of `204 No Content`
/// ends the stream, and any other status than 2xx is thrown at once.
///
/// ```swift
/// static var streaming: StreamingOptions {
///     StreamingOptions(reconnection: Reconnection(maximumAttempts: 5, initialDelay: 0.5))
/// }
/// ```
public struct Reconnection: Sendable {
    /// The most reconnections in a row without an event in between.
    public var maximumAttempts: Int
    /// The delay before the first reconnection, in seconds, unless the server sent `retry:`.
    public var initialDelay: TimeInterval
    /// The longest delay between two reconnections, in seconds.
    public var maximumDelay: TimeInterval

    /// Creates a reconnection policy: the delay doubles with each failed attempt, up to
    /// `maximumDelay`, and each wait is a random time between half the delay and the delay.
    ///
    /// ```swift
    /// let policy = Reconnection(maximumAttempts: 3, initialDelay: 1, maximumDelay: 10)
    /// ```
    public init(maximumAttempts: Int = 5, initialDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before reconnection number `attempt` (1 for the first), from `base` seconds: the
    /// server's `retry` or ``initialDelay``.
    func delay(attempt: Int, base: TimeInterval) -> TimeInterval {
        let doubled = base * pow(2, Double(max(attempt - 1, 0)))
        let capped = min(doubled.isFinite ? doubled : maximumDelay, max(maximumDelay, base))
        return capped / 2 + Double.random(in: 0...1) * capped / 2
    }
}
