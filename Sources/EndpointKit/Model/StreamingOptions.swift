import Foundation

/// How an endpoint's streamed answer is read: what ends it, what counts as an error inside it, how
/// long it may stay silent, and whether a broken event stream reconnects.
///
/// Set it on an endpoint whose payload is ``ServerSentEvents``, ``JSONLines`` or ``ByteStream``;
/// the defaults suit OpenAI-compatible and Anthropic streams.
///
/// ```swift
/// struct LiveScores: Endpoint {
///     var endpoint: Restful { Restful(.get, "scores/live") }
///     typealias ReturnPayloadType = ServerSentEvents<Score>
///     static var streaming: StreamingOptions {
///         StreamingOptions(idleTimeout: 45, reconnection: Reconnection(maximumAttempts: 10))
///     }
/// }
/// ```
public struct StreamingOptions: Sendable {
    /// Event data that ends a stream of Server-Sent Events cleanly, such as OpenAI's `[DONE]`:
    /// the loop ends and the connection is closed. Defaults to `["[DONE]"]`.
    public var terminalData: Set<String>

    /// Event types whose data is an error the server reports in the middle of a stream, such as
    /// Anthropic's `event: error`: the loop throws an ``EndpointError`` of kind
    /// ``EndpointError/Kind/streamError`` with the data decoded as the error payload. Defaults to
    /// `["error"]`.
    ///
    /// Event data that does not decode as the payload but does decode as the endpoint's or server's
    /// error payload (OpenAI's `data: {"error": …}`) is thrown the same way.
    public var errorEventTypes: Set<String>

    /// The longest the stream may stay silent while you wait for its next element, in seconds;
    /// `nil` (the default) keeps the transport's own idle timeout (URLSession's
    /// `timeoutIntervalForRequest`, 60 s). A stream has no total deadline: ``APIServer/timeout``
    /// limits the wait for the status and headers only.
    public var idleTimeout: TimeInterval?

    /// Whether and how a stream of Server-Sent Events reconnects when the connection drops;
    /// `nil` (the default) ends the loop with the error instead.
    public var reconnection: Reconnection?

    /// Creates options; every argument has the default described on its property.
    ///
    /// ```swift
    /// let options = StreamingOptions(terminalData: ["[DONE]", "[END]"], idleTimeout: 30)
    /// ```
    public init(
        terminalData: Set<String> = ["[DONE]"],
        errorEventTypes: Set<String> = ["error"],
        idleTimeout: TimeInterval? = nil,
        reconnection: Reconnection? = nil
    ) {
        self.terminalData = terminalData
        self.errorEventTypes = errorEventTypes
        self.idleTimeout = idleTimeout
        self.reconnection = reconnection
    }
}
