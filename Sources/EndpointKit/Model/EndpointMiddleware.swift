import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step between an endpoint and the transport: it sees each request on the way out and each
/// response on the way back, and may change, repeat or answer them.
///
/// A server runs its ``APIServer/middlewares`` in order, the first one outermost. Each receives the
/// request, its body and `next`, which runs the rest of the chain (and finally the transport).
/// Calling `next` more than once repeats the request; not calling it answers without the network.
///
/// ```swift
/// struct RequestID: EndpointMiddleware {
///     func intercept(
///         _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
///     ) async throws -> (MessageBody, HTTPURLResponse) {
///         var request = request
///         request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
///         return try await next(request, body)
///     }
/// }
///
/// var server = APIServer(origin: URL(string: "https://example.com")!)
/// server.middlewares = [RequestLogger(), RetryPolicy(), RequestID()]
/// ```
///
/// Bodies travel beside the request, as a ``MessageBody``: bytes, or a stream; the request's
/// `httpBody` is empty. To send another body, pass it to `next`. (A middleware that sets `httpBody`
/// with no body passed on sends that; one that sets it to another body than the one it passes on
/// is refused with an ``EndpointError`` of kind ``EndpointError/Kind/invalidRequest``.)
/// A 2xx answer to a streaming call comes back as ``MessageBody/stream(_:)``: return it as it is
/// to let the bytes reach the caller as they arrive.
public protocol EndpointMiddleware: Sendable {
    /// The rest of the chain: call it, `next(request, body)`, to send a request and its body and
    /// get the response's body and metadata (see ``NextStep``).
    typealias Next = NextStep

    /// Handles one request: usually changes it, calls `next`, and looks at what comes back.
    ///
    /// Throw to fail the call: an ``EndpointError`` reaches the caller as it is, `CancellationError`
    /// stays a cancellation, and any other error becomes an ``EndpointError`` of kind
    /// ``EndpointError/Kind/transportFailed``.
    ///
    /// `next` is a value: it may be called from a task of the middleware's own, after this call
    /// has returned (``RequestCoalescing`` sends a shared request that way, so that it outlives a
    /// caller that leaves), and more than once (a retry).
    ///
    /// ```swift
    /// let (answer, response) = try await next(request, body)
    /// ```
    func intercept(
        _ request: URLRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: Next
    ) async throws -> (MessageBody, HTTPURLResponse)
}

/// What a middleware knows about the call it serves.
///
/// ```swift
/// if context.method == .get, context.pathTemplate.hasPrefix("reports/") { … }
/// ```
public struct MiddlewareContext: Sendable {
    /// The operation's identifier: the endpoint's type name, e.g. `"PurchaseCheer"`, as in
    /// ``EndpointError/operationID``, ``TransportContext/operationID`` and the OpenAPI `operationId`.
    public let operationID: String
    /// The HTTP method.
    public let method: RequestMethod
    /// The path template relative to the server's prefix, e.g. `"repos/{owner}/{repo}/branches"`.
    public let pathTemplate: String
    /// The endpoint's API version.
    public let version: Int
    /// The server's origin; credentials go only to this origin.
    public let origin: URL
    /// Whether authorization middlewares should authorize this call (see
    /// ``Endpoint/requiresAuthorization``).
    public let requiresAuthorization: Bool
    /// Whether the call may be sent again after a failure: its method is idempotent (`GET`, `HEAD`,
    /// `PUT`, `DELETE`, `OPTIONS`) or the endpoint says so (``Endpoint/isSafeToRetry``).
    public let isRetryable: Bool
    /// Whether the call streams a 2xx body to its caller (a `ServerSentEvents`, `JSONLines` or
    /// `ByteStream` payload, or a download). A 2xx answer then reaches the middleware at its head,
    /// its body a ``MessageBody/stream(_:)`` whose bytes go to the caller as they arrive; another
    /// status comes with its whole body as ``MessageBody/data(_:)``.
    ///
    /// ```swift
    /// if context.streamsResponse { return try await next(request, body) }  // nothing to cache
    /// ```
    public let streamsResponse: Bool
    /// The endpoint's settings for its middlewares (``Endpoint/options``), read by key.
    ///
    /// ```swift
    /// if context.options.coalescesIdenticalRequests == false { return try await next(request, body) }
    /// ```
    public let options: EndpointOptions
    /// What the steps before this one registered (credentials, a shorter timeout, transport
    /// hooks), as this step's `next` received them.
    package var facts = AttemptFacts()

    /// Creates a context; EndpointKit creates these for you, tests of middlewares may too.
    ///
    /// ```swift
    /// let context = MiddlewareContext(operationID: "Me", method: .get, pathTemplate: "me", origin: origin)
    /// ```
    public init(
        operationID: String,
        method: RequestMethod,
        pathTemplate: String,
        version: Int = 1,
        origin: URL,
        requiresAuthorization: Bool = true,
        isRetryable: Bool? = nil,
        streamsResponse: Bool = false,
        options: EndpointOptions = EndpointOptions()
    ) {
        self.operationID = operationID
        self.method = method
        self.pathTemplate = pathTemplate
        self.version = version
        self.origin = origin
        self.requiresAuthorization = requiresAuthorization
        self.isRetryable = isRetryable ?? method.isIdempotent
        self.streamsResponse = streamsResponse
        self.options = options
    }

    /// The names of the headers and query parameters that carry credentials at this point of the
    /// chain: the ones always secret and those the middlewares before this one registered
    /// (``NextStep/withCredential(header:)``). What a logger redacts.
    ///
    /// ```swift
    /// let shown = context.credentials.containsHeader(name) ? "<redacted>" : value
    /// ```
    public var credentials: CredentialNames {
        facts.credentials
    }

    /// How long the attempt may take once it leaves the chain, in seconds: the call's timeout
    /// (``APIServer/timeout`` or the endpoint's ``Endpoint/timeout``), less what middlewares before
    /// this one took off (``NextStep/withTimeRemaining(_:)``); `nil` for no limit.
    ///
    /// ```swift
    /// guard (context.timeRemaining ?? .infinity) > 1 else { throw URLError(.timedOut) }
    /// ```
    public var timeRemaining: TimeInterval? {
        facts.timeout
    }

    /// Whether `url` has the server's scheme, host and port, so that it may receive credentials.
    public func isSameOrigin(_ url: URL?) -> Bool {
        url.map { Redirect.isSameOrigin($0, origin) } ?? false
    }
}
