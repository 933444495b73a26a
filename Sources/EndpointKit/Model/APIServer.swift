import Foundation

/// Where endpoints are sent, and how: the origin, the versioned path prefix, the transport, the
/// JSON coders and the headers every request carries.
///
/// Set ``default`` once at start-up and call endpoints with `call()` or `response`; pass another
/// server to `call(on:)` when an app talks to more than one API.
///
/// ```swift
/// APIServer.default = APIServer(origin: URL(string: "https://reiterate.app")!)
/// let github = APIServer(origin: URL(string: "https://api.github.com")!, pathPrefix: "")
/// ```
public struct APIServer: Sendable {
    /// The scheme, host, port and optional base path, e.g. `https://example.com/base`.
    public var origin: URL {
        didSet { plan = ServerPlan(origin: origin, pathPrefix: pathPrefix, headers: headers) }
    }
    /// The prefix between the origin and an endpoint's path; `{version}` is replaced by the
    /// endpoint's version. `""` gives an unversioned API.
    public var pathPrefix: String {
        didSet { plan = ServerPlan(origin: origin, pathPrefix: pathPrefix, headers: headers) }
    }
    /// What sends requests. Defaults to ``URLSessionTransport/shared``.
    public var transport: any HTTPTransport
    /// Encodes JSON bodies; its key and date strategies also shape query strings.
    ///
    /// The server keeps this instance (copies of the server share it): set it up before calls
    /// start, and assign a new encoder rather than changing this one while calls are running.
    public var encoder: JSONEncoder {
        get { coders.encoder }
        set { coders = JSONCoders(encoder: newValue, decoder: coders.decoder) }
    }
    /// Decodes JSON payloads.
    ///
    /// The server keeps this instance (copies of the server share it): set it up before calls
    /// start, and assign a new decoder rather than changing this one while calls are running.
    public var decoder: JSONDecoder {
        get { coders.decoder }
        set { coders = JSONCoders(encoder: coders.encoder, decoder: newValue) }
    }
    /// The coders, boxed so that `APIServer` is `Sendable` on iOS 15 and macOS 12 too.
    private(set) var coders: JSONCoders
    /// Headers sent with every request, such as `User-Agent`. `Accept: application/json` is sent
    /// unless this sets another `Accept`.
    public var headers: [String: String] {
        didSet { plan = ServerPlan(origin: origin, pathPrefix: pathPrefix, headers: headers) }
    }
    /// The URL bases and headers every request starts from, worked out when the properties above
    /// are set rather than on every call.
    package private(set) var plan: ServerPlan
    /// The shape of the API's error bodies, e.g. `{"error": {"code": …, "message": …}}`. On a
    /// non-2xx answer whose body decodes as this type, the thrown ``EndpointError`` carries the
    /// value in ``EndpointError/errorPayload``. An endpoint may declare its own
    /// (``Endpoint/errorPayloadType``). Defaults to `nil`: error bodies stay raw bytes.
    public var errorPayloadType: (any (Decodable & Sendable).Type)?
    /// Steps every call goes through, the first one outermost: authorization, retries, logging or
    /// your own ``EndpointMiddleware``. Defaults to none.
    public var middlewares: [any EndpointMiddleware]
    /// How long one attempt of a call may take, in seconds, before it fails with a timeout (which a
    /// ``RetryPolicy`` may retry). An endpoint's ``Endpoint/timeout`` overrides it. Defaults to
    /// ``defaultTimeout`` (60 s), so a server that trickles bytes cannot hold a call for hours;
    /// `nil` or `.infinity` sets no limit, and a negative or NaN value fails every call with
    /// ``EndpointError/Kind/invalidRequest``.
    public var timeout: TimeInterval?
    /// The largest response body a call accepts, in bytes, counted as it arrives and after
    /// decompression. Past it the call fails with ``EndpointError/Kind/responseTooLarge`` and the
    /// connection is cancelled. An endpoint's ``Endpoint/maximumResponseSize`` overrides it.
    /// Defaults to ``defaultMaximumResponseSize`` (16 MiB).
    public var maximumResponseSize: Int
    /// How lists are written in query strings and form bodies: repeated keys (`tag=a&tag=b`,
    /// the default), brackets (`tag[]=a&tag[]=b`) or comma-separated (`tag=a,b`). A property
    /// marked ``EncodedArray`` chooses its own.
    ///
    /// ```swift
    /// var stripe = APIServer(origin: URL(string: "https://api.stripe.com")!, pathPrefix: "/v1")
    /// stripe.arrayEncoding = .brackets
    /// ```
    public var arrayEncoding: ArrayEncoding = .repeatedKeys
    /// Creates a server.
    ///
    /// ```swift
    /// let server = APIServer(
    ///     origin: URL(string: "https://reiterate.app")!,
    ///     headers: ["User-Agent": "Reiterate/3.1"]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - origin: The scheme, host, port and optional base path.
    ///   - pathPrefix: Put between the origin and each endpoint's path, with `{version}` replaced.
    ///   - transport: What sends requests; the default is a URLSession configured by EndpointKit.
    ///   - encoder: Encodes bodies and shapes query strings; snake_case keys and RFC 3339 dates.
    ///   - decoder: Decodes payloads; snake_case keys and RFC 3339 dates, read the same on every OS.
    ///   - headers: Sent with every request.
    ///   - errorPayloadType: The `Decodable` shape of the API's error bodies, if it has one.
    ///   - middlewares: Steps every call goes through, the first one outermost.
    ///   - timeout: How long one attempt may take, in seconds; `nil` for no limit.
    ///   - maximumResponseSize: The largest response body a call accepts, in bytes.
    public init(
        origin: URL,
        pathPrefix: String = "/api/v{version}",
        transport: any HTTPTransport = URLSessionTransport.shared,
        encoder: JSONEncoder = APIServer.makeEncoder(),
        decoder: JSONDecoder = APIServer.makeDecoder(),
        headers: [String: String] = ["User-Agent": APIServer.userAgent],
        errorPayloadType: (any (Decodable & Sendable).Type)? = nil,
        middlewares: [any EndpointMiddleware] = [],
        timeout: TimeInterval? = APIServer.defaultTimeout,
        maximumResponseSize: Int = APIServer.defaultMaximumResponseSize
    ) {
        self.origin = origin
        self.pathPrefix = pathPrefix
        self.transport = transport
        self.coders = JSONCoders(encoder: encoder, decoder: decoder)
        self.headers = headers
        plan = ServerPlan(origin: origin, pathPrefix: pathPrefix, headers: headers)
        self.errorPayloadType = errorPayloadType
        self.middlewares = middlewares
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// The `User-Agent` EndpointKit sends unless told otherwise.
    public static let userAgent = "EndpointKit/0.1"

    /// The timeout of one attempt unless told otherwise: 60 seconds.
    public static let defaultTimeout: TimeInterval = 60

    /// The response size limit unless told otherwise: 16 MiB, ample for JSON API answers.
    public static let defaultMaximumResponseSize = 16 << 20
}

// MARK: - Default coders

extension APIServer {
    /// A new encoder with EndpointKit's defaults: snake_case keys, RFC 3339 dates in UTC.
    ///
    /// The key strategy reads as `.custom`: Foundation's snake_case rule (`transactionId` →
    /// `transaction_id`), computed byte by byte for ASCII names, except that a `CodingKeys` raw
    /// value that differs from its case name is sent as written (`case version = "schemaVersion"`
    /// → `schemaVersion`). Foundation's own `.convertToSnakeCase` would convert that too.
    ///
    /// ```swift
    /// let encoder = APIServer.makeEncoder()
    /// encoder.outputFormatting = .sortedKeys
    /// let server = APIServer(origin: origin, encoder: encoder)
    /// ```
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .custom(SnakeCase.encodingKey)
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A new decoder with EndpointKit's defaults: snake_case keys, and RFC 3339 dates (any
    /// fraction, `Z` or an offset) read by EndpointKit's own reader, the same on every OS.
    ///
    /// The key strategy reads as `.custom`: it is Foundation's `.convertFromSnakeCase`
    /// (`transaction_id` → `transactionId`, `user_ID` → `userId`), computed byte by byte for
    /// ASCII keys and by Foundation itself for any other, about a third cheaper per decoded
    /// payload. Like Foundation's, it converts the JSON's keys before they are matched, so a
    /// `CodingKeys` raw value must be camelCase; `[String: T]` dictionary keys stay as they are.
    ///
    /// ```swift
    /// let decoder = APIServer.makeDecoder()
    /// decoder.keyDecodingStrategy = .useDefaultKeys
    /// let server = APIServer(origin: origin, decoder: decoder)
    /// ```
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom(SnakeCase.decodingKey)
        decoder.dateDecodingStrategy = .custom(RFC3339.decode)
        return decoder
    }
}

// MARK: - The default server

extension APIServer {
    /// The server that `call()` and `response` use.
    ///
    /// Set it once at start-up. Within ``withDefault(_:isolation:operation:)`` it reads as the server given
    /// there, for that task and its child tasks only.
    ///
    /// ```swift
    /// APIServer.default = APIServer(origin: URL(string: "https://reiterate.app")!)
    /// ```
    public static var `default`: APIServer? {
        get { taskScope.defaultServer ?? globalDefault.value }
        set { globalDefault.value = newValue }
    }

    /// Runs `operation` with ``default`` reading as `server` for the current task and its children.
    ///
    /// Tests and previews use it to swap the server without touching global state:
    ///
    /// ```swift
    /// let balance = try await APIServer.withDefault(mockServer) {
    ///     try await PurchaseCheer(identifier: "a", transactionId: 1).response.balance
    /// }
    /// ```
    ///
    /// `operation` runs in the caller's isolation (`isolation` defaults to it), so `@MainActor`
    /// code such as a SwiftUI preview or a `@MainActor` test may use main-actor state inside it.
    @discardableResult
    public static func withDefault<Result>(
        _ server: APIServer,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        // The isolated overload of `withValue` is back-deployed to every OS EndpointKit supports.
        var scope = taskScope
        scope.defaultServer = server
        return try await $taskScope.withValue(scope, operation: operation, isolation: isolation)
    }

    private static let globalDefault = Locked<APIServer?>(nil)
}
