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
    /// ``EndpointError`` a server's answer would give (any other status, with the server's or the
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

    /// A failure of the exchange itself, thrown as a transport throws it: a `URLError` becomes an
    /// ``EndpointError`` of kind ``EndpointError/Kind/transportFailed`` (which ``RetryPolicy``
    /// may retry), an ``EndpointError`` reaches the caller as it is.
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
    /// delay longer than ``Server/timeout`` fails the attempt with a timeout), and `.infinity`
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

    /// Answers `request`, a call of `endpoint`.
    func respond(to request: URLRequest, for endpoint: E) async throws -> (Data, HTTPURLResponse) {
        if delay > 0 {
            try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(delay))
        }
        // EndpointKit always sets the URL; a request from elsewhere gets a stand-in.
        let url = request.url ?? URL(string: "http://stub.invalid/")!
        switch reply {
        case .payload(let makePayload, let status, let headers):
            let payload = try await makePayload(endpoint)
            return (Data(), try StubbedResponse.make(url: url, status: status, headers: headers, payload: payload))
        case .bytes(let body, let status, let headers):
            return (body, try StubbedResponse.make(url: url, status: status, headers: headers, payload: nil))
        case .failure(let error):
            throw error
        case .computed(let choose):
            return try await choose(endpoint).respond(to: request, for: endpoint)
        }
    }
}
