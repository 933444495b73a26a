import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One answer of a ``StubTransport`` to a call of the endpoint `E`: a typed value, bytes as a
/// server would send them, or a failure, optionally after a delay.
///
/// Give one to ``StubTransport/on(_:_:)`` to answer every call the same way, or several to answer
/// calls in order:
///
/// ```swift
/// stubs.on(Me.self, .value(Me.ReturnPayloadType(name: "Ada")))
/// stubs.on(Me.self, .status(503, headers: ["Retry-After": "1"]), .json(#"{"name":"Ada"}"#))
/// stubs.on(Me.self, .failure(URLError(.notConnectedToInternet)))
/// stubs.on(Me.self, .value(Me.ReturnPayloadType(name: "Ada")).delayed(by: 2))
/// ```
public struct StubAnswer<E: Endpoint>: Sendable {
    enum Reply: Sendable {
        /// A payload handed to the caller as it is, with no decoding.
        case payload(@Sendable (E) async throws -> E.ReturnPayloadType, status: Int, headers: [String: String])
        /// A body that goes through the real decoder, as a server's would.
        case bytes(Data, status: Int, headers: [String: String])
        case chunks([Data], interval: TimeInterval, status: Int, headers: [String: String])
        /// An error thrown instead of an answer, as a transport throws it.
        case failure(any Error)
        /// Another answer, chosen for each call.
        case computed(@Sendable (E) async throws -> StubAnswer<E>)
    }

    let reply: Reply
    /// Seconds to wait before answering.
    private(set) var delay: TimeInterval = 0

    /// A typed payload, handed to the caller as it is: it is not encoded or decoded, so its type
    /// need not be `Encodable`.
    ///
    /// The response that middlewares see has `status` (200 by default), `headers` and an empty
    /// body. Use a 2xx status: for an error answer, give bytes with ``json(_:status:headers:)``, so
    /// that the error is built as a real one would be.
    ///
    /// ```swift
    /// stubs.on(PurchaseCheer.self, .value(.init(balance: 200)))
    /// ```
    public static func value(_ payload: E.ReturnPayloadType, status: Int = 200, headers: [String: String] = [:]) -> Self {
        Self(reply: .payload({ _ in payload }, status: status, headers: headers))
    }

    /// A typed payload made for each call from the endpoint value; throw to fail the call as a
    /// transport would.
    ///
    /// ```swift
    /// stubs.on(PurchaseCheer.self, .reply { call in .init(balance: call.transactionId == 1 ? 200 : 0) })
    /// ```
    public static func reply(
        status: Int = 200, headers: [String: String] = [:],
        _ makePayload: @escaping @Sendable (E) async throws -> E.ReturnPayloadType
    ) -> Self {
        Self(reply: .payload(makePayload, status: status, headers: headers))
    }

    /// A JSON body, read by the server's real decoder (a 2xx status) or turned into the same
    /// `EndpointError` a server's answer would give (any other status, with the server's or the
    /// endpoint's error payload type). `Content-Type: application/json` is sent unless `headers`
    /// has a content type.
    ///
    /// ```swift
    /// stubs.on(DeleteCheer.self, .json(#"{"error":"gone"}"#, status: 404))
    /// ```
    public static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Self {
        var headers = headers
        if !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            headers["Content-Type"] = "application/json"
        }
        return Self(reply: .bytes(Data(text.utf8), status: status, headers: headers))
    }

    /// A body of any content type (name it in `headers`), read as a server's would be.
    ///
    /// ```swift
    /// stubs.on(Avatar.self, .body(pngData, headers: ["Content-Type": "image/png"]))
    /// ```
    public static func body(_ data: Data, status: Int = 200, headers: [String: String] = [:]) -> Self {
        Self(reply: .bytes(data, status: status, headers: headers))
    }

    /// A status with no body, such as `204` or `503`.
    ///
    /// ```swift
    /// stubs.on(Me.self, .status(503, headers: ["Retry-After": "2"]), .json(#"{"name":"Ada"}"#))
    /// ```
    public static func status(_ status: Int, headers: [String: String] = [:]) -> Self {
        Self(reply: .bytes(Data(), status: status, headers: headers))
    }

    /// A body sent in `chunks`, `interval` seconds apart (the first after `interval` too): a
    /// streamed answer, read by `ByteStream`, `JSONLines` or `ServerSentEvents` payloads as
    /// it would be from a server.
    ///
    /// ```swift
    /// stubs.on(ExportOrders.self, .chunks([Data(#"{"id":1}"#.utf8), Data("\n".utf8)], interval: 0.1))
    /// ```
    ///
    /// - Parameters:
    ///   - chunks: The body, in the pieces it arrives in.
    ///   - interval: The pause before each chunk, in seconds.
    ///   - status: The HTTP status.
    ///   - headers: Response headers.
    public static func chunks(_ chunks: [Data], interval: TimeInterval = 0, status: Int = 200, headers: [String: String] = [:]) -> Self {
        Self(reply: .chunks(chunks, interval: interval, status: status, headers: headers))
    }

    /// Server-Sent Events, one chunk each, `interval` seconds apart, as `text/event-stream`:
    /// what a `ServerSentEvents` payload reads. Add `ServerSentEvent(data: "[DONE]")` to end the
    /// stream as OpenAI does.
    ///
    /// ```swift
    /// stubs.on(ChatCompletion.self, .events([
    ///     ServerSentEvent(data: #"{"choices":[{"delta":{"content":"Hi"}}]}"#),
    ///     ServerSentEvent(data: "[DONE]"),
    /// ], interval: 0.05))
    /// ```
    ///
    /// - Parameters:
    ///   - events: The events; each one's data is sent as it is, one `data:` line per line.
    ///   - interval: The pause before each event, in seconds.
    ///   - status: The HTTP status.
    ///   - headers: Response headers; `Content-Type` defaults to `text/event-stream`.
    public static func events(
        _ events: [ServerSentEvent<String>], interval: TimeInterval = 0, status: Int = 200, headers: [String: String] = [:]
    ) -> Self {
        var headers = headers
        if !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            headers["Content-Type"] = "text/event-stream"
        }
        let chunks = events.map { event -> Data in
            var text = event.type == "message" ? "" : "event: \(event.type)\n"
            if let id = event.id { text += "id: \(id)\n" }
            for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) {
                text += "data: \(line)\n"
            }
            return Data((text + "\n").utf8)
        }
        return Self(reply: .chunks(chunks, interval: interval, status: status, headers: headers))
    }

    /// A failure of the exchange itself, thrown as a transport throws it: a `URLError` becomes an
    /// `EndpointError` of kind `EndpointError/Kind/transportFailed` (which `RetryPolicy`
    /// may retry), an `EndpointError` reaches the caller as it is.
    ///
    /// ```swift
    /// stubs.on(Me.self, .failure(URLError(.notConnectedToInternet)))
    /// ```
    public static func failure(_ error: any Error) -> Self {
        Self(reply: .failure(error))
    }

    /// An answer chosen for each call from its endpoint value: a typed value for some calls, an
    /// error answer for others.
    ///
    /// ```swift
    /// stubs.on(PurchaseCheer.self, .computed { call in
    ///     call.identifier.isEmpty ? .json(#"{"error":"identifier is required"}"#, status: 422) : .value(.init(balance: 200))
    /// })
    /// ```
    public static func computed(_ choose: @escaping @Sendable (E) async throws -> StubAnswer<E>) -> Self {
        Self(reply: .computed(choose))
    }

    /// This answer, given `seconds` after the request arrives. The wait ends at once, with a
    /// `CancellationError`, when the call is cancelled; the call's timeout applies to it (so a
    /// delay longer than `APIServer/timeout` fails the attempt with a timeout), and `.infinity`
    /// waits until one of them ends it.
    ///
    /// ```swift
    /// stubs.on(Me.self, .json(#"{"name":"Ada"}"#).delayed(by: 0.5))  // a slow network, in a preview
    /// ```
    public func delayed(by seconds: TimeInterval) -> Self {
        var answer = self
        answer.delay = seconds
        return answer
    }

    /// Answers `request`, a call of `endpoint`; a typed payload is delivered through `context`.
    func respond(to request: URLRequest, for endpoint: E, context: TransportContext) async throws -> (Data, HTTPURLResponse) {
        if delay > 0 {
            try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(delay))
        }
        // EndpointKit always sets the URL; a request from elsewhere gets a stand-in.
        let url = request.url ?? URL(string: "http://stub.invalid/")!
        switch reply {
        case .payload(let makePayload, let status, let headers):
            context.deliver(try await makePayload(endpoint))
            return (Data(), try StubbedResponse.make(url: url, status: status, headers: headers))
        case .bytes(let body, let status, let headers):
            return (body, try StubbedResponse.make(url: url, status: status, headers: headers))
        case .chunks(let chunks, _, let status, let headers):
            return (chunks.reduce(into: Data()) { $0.append($1) }, try StubbedResponse.make(url: url, status: status, headers: headers))
        case .failure(let error):
            throw error
        case .computed(let choose):
            return try await choose(endpoint).respond(to: request, for: endpoint, context: context)
        }
    }

    /// The answer as a stream: chunks with their pauses, anything else as one chunk.
    func stream(to request: URLRequest, for endpoint: E, context: TransportContext) async throws -> (ByteStream, HTTPURLResponse) {
        switch reply {
        case .chunks(let chunks, let interval, let status, let headers):
            if delay > 0 {
                try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(delay))
            }
            let url = request.url ?? URL(string: "http://stub.invalid/")!
            let response = try StubbedResponse.make(url: url, status: status, headers: headers)
            return (ByteStream(PacedChunks(chunks: chunks, interval: interval)), response)
        case .computed(let choose):
            if delay > 0 {
                try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(delay))
            }
            return try await choose(endpoint).stream(to: request, for: endpoint, context: context)
        default:
            let (body, response) = try await respond(to: request, for: endpoint, context: context)
            return (ByteStream(body), response)
        }
    }
}

/// Chunks that come `interval` seconds apart, for a streamed stub answer.
struct PacedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]
    let interval: TimeInterval

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<Data>
        let interval: TimeInterval

        mutating func next() async throws -> Data? {
            guard let chunk = rest.popFirst() else { return nil }
            if interval > 0 {
                try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(interval))
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(rest: chunks[...], interval: interval)
    }
}
