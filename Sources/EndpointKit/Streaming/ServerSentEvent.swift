/// One event of a stream of Server-Sent Events, its data decoded as `Payload`.
///
/// ```swift
/// for try await event in try await ChatCompletion(model: "m", messages: history).response {
///     print(event.data.choices[0].delta.content ?? "", terminator: "")
/// }
/// ```
public struct ServerSentEvent<Payload: Sendable>: Sendable {
    /// The event's type: its `event:` field, or `"message"` when it has none.
    public var type: String
    /// The event's data (its `data:` lines joined by line feeds), decoded.
    public var data: Payload
    /// The stream's last event ID when this event arrived (`id:` sets it and it lasts until the
    /// next one); `nil` when the server has not sent one.
    public var id: String?

    /// Creates an event, for stubs and tests.
    ///
    /// ```swift
    /// let event = ServerSentEvent(type: "delta", data: "Hel", id: "1")
    /// ```
    public init(type: String = "message", data: Payload, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}

extension ServerSentEvent: Equatable where Payload: Equatable {}
