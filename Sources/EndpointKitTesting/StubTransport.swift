import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers endpoint calls from stubs, by endpoint type, and records every call:
/// for unit tests and SwiftUI previews, with no network and no URL routing.
///
/// Stub an endpoint with a typed value (which need not be `Encodable`), with bytes that go through
/// the real decoder, or with an error answer; then call endpoints as the app does:
///
/// ```swift
/// let stubs = StubTransport()
/// stubs.on(PurchaseCheer.self) { call in .init(balance: call.transactionId == 1 ? 200 : 0) }
/// stubs.on(ListBranches.self, json: #"[{"name":"main","protected":true}]"#)
/// stubs.on(DeleteCheer.self, status: 404, json: #"{"error":"gone"}"#)
///
/// let server = APIServer(origin: URL(string: "https://api.test")!, transport: stubs)
/// let balance = try await APIServer.withDefault(server) {
///     try await PurchaseCheer(identifier: "a", transactionId: 1).response.balance
/// }
/// #expect(stubs.calls(to: PurchaseCheer.self).map(\.transactionId) == [1])
/// ```
///
/// - The server's middlewares run as for a real call: a stubbed 401 starts a token refresh, and
///   ``requests`` shows the headers they set.
/// - A call of an endpoint with no stub fails with `EndpointError/Kind/notStubbed`, naming it
///   and the endpoints that have stubs. Nothing is ever sent over the network.
/// - Each attempt that reaches the transport is recorded (a retried call twice), under a lock:
///   concurrent calls are safe. Give each test its own transport and server
///   (`APIServer/withDefault(_:isolation:operation:)` scopes a server to a task), and tests running
///   in parallel never see each other's stubs or calls.
///
/// It answers by the endpoint each call's `TransportContext` carries, so a transport that wraps a
/// `StubTransport` passes the context on as it is.
public final class StubTransport: HTTPTransport {
    private let state = Locked(State())

    private struct State: Sendable {
        /// The answers of each stubbed endpoint type, by type.
        var stubs: [ObjectIdentifier: Stub] = [:]
        /// Every call that reached the transport, in order.
        var calls: [RecordedCall] = []
    }

    private struct Stub: Sendable {
        /// The endpoint's type name, for messages.
        let name: String
        /// `StubAnswer<E>` values, in order; the last one answers every call after the others.
        let answers: [any Sendable]
        /// How many calls this stub has answered.
        var used = 0
    }

    private struct RecordedCall: Sendable {
        let endpoint: (any Endpoint)?
        let request: URLRequest
    }

    /// Creates a transport with no stubs.
    ///
    /// ```swift
    /// let stubs = StubTransport()
    /// let server = APIServer(origin: URL(string: "https://api.test")!, transport: stubs)
    /// ```
    public init() {}

    // MARK: - Stubbing

    /// Answers calls of `endpoint` with `answers`: every call with the same one, or one after the
    /// other in order, the last answering every call after that. Replaces an earlier stub of the
    /// same endpoint.
    ///
    /// ```swift
    /// stubs.on(Me.self, .status(503), .json(#"{"name":"Ada"}"#))  // a 503, then a 200 every time
    /// ```
    public func on<E: Endpoint>(_ endpoint: E.Type, _ answers: StubAnswer<E>...) {
        on(endpoint, answers: answers)
    }

    /// Answers calls of `endpoint` with `answers`, in order, the last answering every call after
    /// the others. An empty list removes the stub.
    ///
    /// ```swift
    /// stubs.on(Me.self, answers: pages.map { .json($0) })
    /// ```
    public func on<E: Endpoint>(_ endpoint: E.Type, answers: [StubAnswer<E>]) {
        state.withLock { state in
            state.stubs[ObjectIdentifier(E.self)] = answers.isEmpty ? nil
                : Stub(name: String(describing: E.self), answers: answers)
        }
    }

    /// Answers each call of `endpoint` with the typed payload `makePayload` returns for it: it is
    /// handed to the caller as it is, with no encoding or decoding. Throw to fail the call. Written
    /// as a trailing closure, the label goes away:
    ///
    /// ```swift
    /// stubs.on(PurchaseCheer.self) { call in .init(balance: call.transactionId == 1 ? 200 : 0) }
    /// ```
    public func on<E: Endpoint>(
        _ endpoint: E.Type, reply makePayload: @escaping @Sendable (E) async throws -> E.ReturnPayloadType
    ) {
        on(endpoint, .reply(makePayload))
    }

    /// Answers every call of `endpoint` with a JSON body, read by the real decoder; a non-2xx
    /// `status` gives the `EndpointError` a server's answer would, error payload included.
    ///
    /// ```swift
    /// stubs.on(ListBranches.self, json: #"[{"name":"main","protected":true}]"#)
    /// stubs.on(DeleteCheer.self, status: 404, json: #"{"error":"gone"}"#)
    /// ```
    public func on<E: Endpoint>(_ endpoint: E.Type, status: Int = 200, headers: [String: String] = [:], json: String) {
        on(endpoint, .json(json, status: status, headers: headers))
    }

    // MARK: - Recording

    /// The endpoint values of the calls of `endpoint` that reached this transport, in order: one
    /// per attempt.
    ///
    /// ```swift
    /// #expect(stubs.calls(to: PurchaseCheer.self).map(\.transactionId) == [1])
    /// ```
    public func calls<E: Endpoint>(to endpoint: E.Type) -> [E] {
        state.withLock { $0.calls.compactMap { $0.endpoint as? E } }
    }

    /// Every request that reached this transport, in order, as the middlewares left it (headers
    /// such as `Authorization` included); a body streamed from a file is read into `httpBody`.
    ///
    /// ```swift
    /// #expect(stubs.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer new")
    /// ```
    public var requests: [URLRequest] {
        state.withLock { $0.calls.map(\.request) }
    }

    // MARK: - HTTPTransport

    /// Records the call and finds its stub's next answer.
    private func answer<E: Endpoint>(to request: URLRequest, for endpoint: E) throws -> StubAnswer<E> {
        let (answer, stubbed) = state.withLock { state -> (StubAnswer<E>?, [String]) in
            state.calls.append(RecordedCall(endpoint: endpoint, request: request))
            let key = ObjectIdentifier(E.self)
            guard var stub = state.stubs[key] else { return (nil, state.stubs.values.map(\.name)) }
            let answer = stub.answers[min(stub.used, stub.answers.count - 1)] as? StubAnswer<E>
            stub.used += 1
            state.stubs[key] = stub
            return (answer, [])
        }
        guard let answer else {
            let names = stubbed.sorted()
            throw EndpointError(
                kind: .notStubbed, route: EndpointError.route(of: request),
                reason: "\(E.self) has no stub, so the call was not sent anywhere; the stubbed endpoints are "
                    + (names.isEmpty ? "none" : names.joined(separator: ", "))
                    + ". Add one with stubs.on(\(E.self).self, …)",
                request: request)
        }
        return answer
    }

    /// Answers the call of the context's endpoint from its stub, after recording it (with its body
    /// as `httpBody`). A call that streams gets a ``StubAnswer/chunks(_:interval:status:headers:)``
    /// or ``StubAnswer/events(_:interval:status:headers:)`` answer chunk by chunk, with its pauses;
    /// any other answer comes whole.
    ///
    /// ```swift
    /// let (body, response) = try await stubs.send(request, body: nil, context: TransportContext(input: Me()))
    /// ```
    ///
    /// - Throws: `EndpointError/Kind/notStubbed` when the endpoint has no stub; the stub's
    ///   failure, if it is one.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        if let body { request.httpBody = try await body.collect(upTo: .max) }
        return try await reply(to: request, for: context.input, context: context)
    }

    private func reply<E: Endpoint>(to request: URLRequest, for endpoint: E, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        let answer = try answer(to: request, for: endpoint)
        if context.streamsResponse {
            let (stream, response) = try await answer.stream(to: request, for: endpoint, context: context)
            return (.stream(stream), response)
        }
        let (bytes, response) = try await answer.respond(to: request, for: endpoint, context: context)
        return (.data(bytes), response)
    }
}

extension EndpointError.Kind {
    /// A test transport had no answer for the call, so nothing was sent: ``StubTransport`` has no
    /// stub for the endpoint, or ``ReplayTransport`` has no recording of the request (or cannot
    /// read one).
    public static let notStubbed = EndpointError.Kind(description: "notStubbed")
}
