import Foundation

/// A stream of Server-Sent Events (`text/event-stream`), each event's data decoded as `Payload`:
/// the payload of an endpoint that streams its answer, such as a chat completion.
///
/// The call returns once the server has answered 2xx (any other status throws first, with its
/// body and error payload, as for every endpoint), and each event reaches your loop as soon as the
/// server has flushed it. The stream follows the WHATWG rules: multi-line `data`, `event`, `id`,
/// `retry`, comments, CR, LF or CRLF line ends, a leading BOM, and chunks split anywhere.
///
/// ```swift
/// struct ChatCompletion: Endpoint {
///     var endpoint: Restful { Restful(.post, "chat/completions") }
///     let model: String
///     let messages: [ChatMessage]
///     var stream = true
///     typealias ReturnPayloadType = ServerSentEvents<ChatChunk>
/// }
///
/// for try await event in try await ChatCompletion(model: "m", messages: history).response {
///     print(event.data.choices[0].delta.content ?? "", terminator: "")
/// }
/// ```
///
/// Each event's data is decoded with the server's decoder, or kept as text with
/// `ServerSentEvents<String>`. The endpoint's ``Endpoint/streaming`` options say which data ends the
/// stream (OpenAI's `[DONE]` by default), which events are errors (`event: error`), how long the
/// stream may stay silent, and whether it reconnects. An event larger than the server's
/// ``APIServer/maximumResponseSize`` fails the stream rather than filling memory.
public struct ServerSentEvents<Payload: Decodable & Sendable>: AsyncSequence, Sendable {
    /// One event, its data decoded.
    public typealias Element = ServerSentEvent<Payload>

    let context: StreamContext

    /// Reads the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let context: StreamContext
        var bytes: ByteStream.AsyncIterator?
        var parser: ServerSentEventParser
        var pending: [RawServerSentEvent] = []
        var next = 0
        var finished = false
        /// Reconnections since the last event.
        var failedAttempts = 0
        var count = 0

        /// The next event, or `nil` once the stream has ended (a terminal event, or the server
        /// closed it and there is no reconnection).
        ///
        /// - Throws: An ``EndpointError``: ``EndpointError/Kind/streamError`` for an error event,
        ///   ``EndpointError/Kind/decodingFailed`` for data that is not a `Payload`,
        ///   ``EndpointError/Kind/responseTooLarge`` for an oversized event,
        ///   ``EndpointError/Kind/transportFailed`` when the connection is lost; `CancellationError`.
        public mutating func next() async throws -> ServerSentEvent<Payload>? {
            while true {
                if next < pending.count {
                    let raw = pending[next]
                    next += 1
                    return try event(from: raw)
                }
                if finished { return nil }
                let chunk: Data?
                do {
                    chunk = try await bytes?.next()
                } catch is CancellationError {
                    stop()
                    throw CancellationError()
                } catch {
                    if try await reconnect(after: error) { continue }
                    stop()
                    throw error
                }
                guard let chunk else {
                    if try await reconnect(after: nil) { continue }
                    stop()
                    return nil
                }
                do {
                    pending = try parser.consume(chunk)
                    next = 0
                } catch {
                    stop()
                    throw context.failure(
                        .responseTooLarge,
                        "an event of the stream is larger than \(error.limit) bytes, so the stream was stopped (raise APIServer.maximumResponseSize, or the endpoint's static maximumResponseSize, if it is expected)")
                }
            }
        }

        private mutating func event(from raw: RawServerSentEvent) throws -> ServerSentEvent<Payload>? {
            failedAttempts = 0
            if context.options.terminalData.contains(raw.data) {
                bytes?.closeSoon()
                stop()
                return nil
            }
            count += 1
            let id = raw.lastEventID.isEmpty ? nil : raw.lastEventID
            let what = "event \(count) of the stream" + (id.map { " (id \"\($0)\")" } ?? "")
            let data = Data(raw.data.utf8)
            if context.options.errorEventTypes.contains(raw.type) {
                bytes?.closeSoon()
                stop()
                let payload = context.errorPayloadType.flatMap { try? context.decode(errorPayload: $0, from: data) }
                throw context.failure(.streamError, "the server sent an \"\(raw.type)\" event as \(what): \(Self.excerpt(raw.data))", body: data, errorPayload: payload)
            }
            do {
                return ServerSentEvent(type: raw.type, data: try context.decode(Payload.self, from: data, what: what), id: id)
            } catch {
                stop()
                throw error
            }
        }

        /// Up to 200 characters of an event's data, for a message.
        private static func excerpt(_ text: String) -> String {
            text.count > 200 ? String(text.prefix(200)) + "…" : text
        }

        /// Ends the stream and closes its connection.
        private mutating func stop() {
            finished = true
            bytes = nil
            pending = []
            next = 0
        }

        /// Reconnects when the endpoint asks for it: `true` once a new connection streams.
        private mutating func reconnect(after error: (any Error)?) async throws -> Bool {
            guard let policy = context.options.reconnection else { return false }
            bytes = nil  // closes the old connection
            var lastError = error
            while true {
                failedAttempts += 1
                guard failedAttempts <= policy.maximumAttempts else {
                    if let lastError { throw lastError }
                    return false
                }
                let base = parser.reconnectionTime.map { Double($0) / 1000 } ?? policy.initialDelay
                try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(policy.delay(attempt: failedAttempts, base: base)))
                do {
                    guard let body = try await context.reopen(parser.lastEventID) else {
                        return false  // 204 No Content: the server says stop
                    }
                    parser.startNewConnection()
                    bytes = body.makeAsyncIterator()
                    return true
                } catch let failure as EndpointError where failure.kind == .transportFailed {
                    lastError = failure  // the server is still away: wait and try again
                }
            }
        }
    }

    /// Starts reading; a stream has one reader.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            context: context, bytes: context.body.makeAsyncIterator(),
            parser: ServerSentEventParser(maximumEventSize: context.maximumElementSize))
    }
}

extension ServerSentEvents: Decodable, StreamedPayload {
    /// Always fails: events are read from a response, not decoded from JSON.
    ///
    /// ```swift
    /// typealias ReturnPayloadType = ServerSentEvents<ChatChunk>  // the call returns the stream
    /// ```
    public init(from decoder: any Decoder) throws {
        throw streamedPayloadIsNotDecodable(Self.self, decoder: decoder)
    }

    package static var acceptedTypes: String? { "text/event-stream" }

    package static func reading(_ context: StreamContext) -> ServerSentEvents<Payload> {
        ServerSentEvents(context: context)
    }
}
