import Foundation

/// A REST endpoint declared as a struct: its method and path, its parameters and its result.
///
/// Conform a struct, give it a ``Restful`` value named `endpoint`, its parameters as properties, and
/// name the type it returns. Then call it in one line:
///
/// ```swift
/// struct PurchaseCheer: Endpoint {
///     var endpoint: Restful { Restful(.post, "purchase_cheer", version: 2) }  // POST /api/v2/purchase_cheer
///     let identifier: String
///     let transactionId: UInt64
///     struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
/// }
///
/// let balance = try await PurchaseCheer(identifier: id, transactionId: tid).response.balance
/// ```
///
/// Where each property goes:
/// - `{name}` in the path binds the property `name`, as one percent-encoded path segment.
/// - For `GET`, `HEAD`, `DELETE` and `OPTIONS` the other properties form the query string
///   (snake_case keys, `nil` left out, arrays as repeated keys, nested values as `key[sub]`).
/// - For `POST`, `PUT` and `PATCH` they form a JSON body (snake_case keys, `nil` left out).
/// - The `endpoint` property itself is never sent.
///
/// In an app target whose default actor isolation is `MainActor` (new Xcode 26 projects), declare
/// endpoints and payload types `nonisolated struct`; otherwise a payload's main-actor-isolated
/// `Decodable` conformance cannot satisfy `ReturnPayloadType`'s `Sendable` requirement.
public protocol Endpoint: Encodable, Sendable {
    /// What the endpoint returns: any `Decodable` read from JSON, ``EmptyPayload`` for no content,
    /// `Data` for the raw body, `String` for text, or an optional that is `nil` for an empty body.
    associatedtype ReturnPayloadType: Decodable & Sendable

    /// The HTTP method and path, e.g. `Restful(.get, "repos/{owner}/{repo}/branches")`.
    ///
    /// Declare it as a computed property, `var endpoint: Restful { Restful(.get, "cheers") }`: a
    /// stored `let endpoint = Restful(...)` works for calls too, but keeps the struct from being
    /// `Decodable`, which tools, MCP and the OpenAPI export need.
    var endpoint: Restful { get }

    /// Headers this endpoint always sends, such as `Accept-Language`. They replace the server's
    /// headers of the same name (in any case). Defaults to none.
    ///
    /// ```swift
    /// struct Greeting: Endpoint {
    ///     static var headers: [String: String] { ["Accept-Language": "fr"] }
    ///     var endpoint: Restful { Restful(.get, "greeting") }
    ///     typealias ReturnPayloadType = String
    /// }
    /// ```
    static var headers: [String: String] { get }

    /// The shape of this endpoint's error bodies, when it differs from the server's
    /// ``APIServer/errorPayloadType``. Defaults to `nil`: the server's type applies.
    ///
    /// ```swift
    /// struct SignIn: Endpoint {
    ///     static var errorPayloadType: (any (Decodable & Sendable).Type)? { OAuthError.self }
    ///     // …
    /// }
    /// ```
    static var errorPayloadType: (any (Decodable & Sendable).Type)? { get }

    /// Whether authorization middlewares authorize this endpoint. Defaults to `true`; return
    /// `false` for sign-in and token-refresh endpoints and for public endpoints of an authorized API.
    ///
    /// ```swift
    /// struct RefreshToken: Endpoint {
    ///     static var requiresAuthorization: Bool { false }
    ///     // …
    /// }
    /// ```
    static var requiresAuthorization: Bool { get }

    /// Whether a ``RetryPolicy`` may send this endpoint again although its method is not
    /// idempotent (`POST`, `PATCH`), e.g. because the server deduplicates it by an idempotency key.
    /// Defaults to `false`. `GET`, `HEAD`, `PUT`, `DELETE` and `OPTIONS` are retried regardless.
    ///
    /// ```swift
    /// struct CreatePayment: Endpoint {
    ///     static var isSafeToRetry: Bool { true }
    ///     @HeaderField("Idempotency-Key") var idempotencyKey: String? = UUID().uuidString
    ///     // …
    /// }
    /// ```
    static var isSafeToRetry: Bool { get }

    /// How long one attempt of this endpoint may take, in seconds, when it differs from the
    /// server's ``APIServer/timeout``. Defaults to `nil`: the server's applies.
    ///
    /// ```swift
    /// struct ExportReport: Endpoint {
    ///     static var timeout: TimeInterval? { 120 }
    ///     // …
    /// }
    /// ```
    static var timeout: TimeInterval? { get }

    /// The largest response body this endpoint accepts, in bytes, when it differs from the
    /// server's ``APIServer/maximumResponseSize``. Defaults to `nil`: the server's applies.
    ///
    /// ```swift
    /// struct ExportReport: Endpoint {
    ///     static var maximumResponseSize: Int? { 200 << 20 }  // 200 MiB
    ///     // …
    /// }
    /// ```
    static var maximumResponseSize: Int? { get }

    /// The server this endpoint belongs to, when it is not ``APIServer/default``. Defaults to `nil`.
    ///
    /// Declare it once for a family of endpoints, in an extension of a protocol of your own, and
    /// every endpoint of the family goes to that API without `call(on:)`:
    ///
    /// ```swift
    /// extension APIServer {
    ///     static let github = APIServer(origin: URL(string: "https://api.github.com")!, pathPrefix: "")
    /// }
    /// protocol GitHubEndpoint: Endpoint {}
    /// extension GitHubEndpoint { static var server: APIServer? { .github } }
    ///
    /// let branches = try await ListBranches(owner: "apple", repo: "swift").response  // to GitHub
    /// ```
    ///
    /// `call(on:)` still sends it anywhere. Tests and previews swap a bound server for one task with
    /// ``APIServer/withTransport(_:isolation:operation:)`` (every server's calls go through a stub
    /// transport, so none reaches the network) or ``APIServer/withReplacement(_:for:isolation:operation:)``
    /// (one API's calls go to another server, such as staging).
    static var server: APIServer? { get }

    /// How a streamed answer is read (when the payload is ``ServerSentEvents``, ``JSONLines`` or
    /// ``ByteStream``): the data that ends it, the events that are errors, its idle timeout and
    /// reconnection. Defaults to `StreamingOptions()`.
    ///
    /// ```swift
    /// static var streaming: StreamingOptions { StreamingOptions(idleTimeout: 30) }
    /// ```
    static var streaming: StreamingOptions { get }

    /// The settings this endpoint gives the middlewares of its calls, each under the key its
    /// middleware declares (``EndpointOptionKey``). Defaults to none: every key's default.
    ///
    /// ```swift
    /// struct LiveScore: Endpoint {
    ///     static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = false } }  // every caller asks afresh
    ///     // …
    /// }
    /// ```
    static var options: EndpointOptions { get }
}

// MARK: - Default implementations

extension Endpoint {
    /// No endpoint-specific headers.
    public static var headers: [String: String] { [:] }

    /// The server's error type applies.
    public static var errorPayloadType: (any (Decodable & Sendable).Type)? { nil }

    /// Authorized when the server has an authorization middleware.
    public static var requiresAuthorization: Bool { true }

    /// Retried only when its method is idempotent.
    public static var isSafeToRetry: Bool { false }

    /// The server's timeout applies.
    public static var timeout: TimeInterval? { nil }

    /// Every middleware's defaults apply.
    public static var options: EndpointOptions { EndpointOptions() }

    /// The server's response size limit applies.
    public static var maximumResponseSize: Int? { nil }

    /// Not bound to a server: calls without `on:` go to ``APIServer/default``.
    public static var server: APIServer? { nil }

    /// `StreamingOptions()`: `[DONE]` ends a stream, `event: error` is an error, the transport's
    /// idle timeout, no reconnection.
    public static var streaming: StreamingOptions { StreamingOptions() }
}
