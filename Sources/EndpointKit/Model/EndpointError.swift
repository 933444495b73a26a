import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The error an endpoint call throws when it cannot produce its payload.
///
/// Every failure carries the endpoint it came from, a ``Kind`` to branch on, and whatever context
/// existed at the time: the request, the response, its body and the underlying error. Its
/// ``description`` is a sentence a person can act on.
///
/// ```swift
/// do {
///     let balance = try await PurchaseCheer(identifier: id, transactionId: tid).response.balance
/// } catch let error as EndpointError where error.statusCode == 402 {
///     showPaywall()
/// } catch let error as EndpointError {
///     print(error)  // POST /api/v2/purchase_cheer: the server answered 500 Internal Server Error. …
/// }
/// ```
///
/// Cancelling the calling task throws `CancellationError`, not `EndpointError`.
public struct EndpointError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in broad terms.
    public let kind: Kind
    /// The call's route: its method and path template, the server's prefix included, e.g.
    /// `"GET /api/v1/repos/{owner}/{repo}"`: where the error happened, as a person reads it, the
    /// same for every call of the endpoint (``request`` has the concrete URL; ``operationID`` is
    /// the identifier for code).
    public package(set) var route: String
    /// The endpoint type's name, e.g. `"PurchaseCheer"`: one stable identifier of the operation for
    /// logs and metrics, however the call failed. The OpenAPI document's `operationId`
    /// (`purchaseCheer`) and the LLM tool's name (`purchase_cheer`) are derived from it. `nil` for
    /// an error made outside a call (by a custom transport, say).
    ///
    /// ```swift
    /// catch let error as EndpointError { metrics.count("failure", operation: error.operationID ?? "?") }
    /// ```
    public package(set) var operationID: String?
    /// What went wrong, as a sentence fragment, without the endpoint or the body.
    public let reason: String
    /// The request, when it was built.
    public let request: URLRequest?
    /// The response, when one arrived.
    public let response: HTTPURLResponse?
    /// The response body, when a response arrived (possibly empty).
    public let responseBody: Data?
    /// The error that caused this one, such as a `DecodingError`, `EncodingError` or `URLError`.
    public let underlyingError: (any Error)?
    /// The body of a non-2xx answer decoded as the API's error type, when one is declared (see
    /// ``APIServer/errorPayloadType``) and the body matches it; read it with ``errorPayload(as:)``.
    public let errorPayload: (any Sendable)?
    /// Why a non-2xx body did not decode as the declared error type (usually a `DecodingError`),
    /// when one is declared and the body did not match it; ``errorPayload`` is then `nil`.
    public let errorPayloadDecodingError: (any Error)?

    /// Creates an error. EndpointKit creates these for you; the initializer exists for transports,
    /// mocks and tests.
    ///
    /// ```swift
    /// throw EndpointError(kind: .transportFailed, route: "GET /api/v1/me", reason: "offline")
    /// ```
    public init(
        kind: Kind,
        route: String,
        reason: String,
        request: URLRequest? = nil,
        response: HTTPURLResponse? = nil,
        responseBody: Data? = nil,
        underlyingError: (any Error)? = nil,
        errorPayload: (any Sendable)? = nil,
        errorPayloadDecodingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.route = route
        self.reason = reason
        self.request = request
        self.response = response
        self.responseBody = responseBody
        self.underlyingError = underlyingError
        self.errorPayload = errorPayload
        self.errorPayloadDecodingError = errorPayloadDecodingError
    }

    /// The HTTP status code of the response, when one arrived.
    public var statusCode: Int? { response?.statusCode }

    /// The API's error body as `type`, when the server answered with a non-2xx status and a body
    /// that decoded as the error type declared on the server or the endpoint.
    ///
    /// ```swift
    /// catch let error as EndpointError {
    ///     if let apiError = error.errorPayload(as: APIError.self) { show(apiError.error.message) }
    /// }
    /// ```
    public func errorPayload<Payload>(as type: Payload.Type) -> Payload? {
        errorPayload as? Payload
    }

    /// The decoding failure, with its coding path, when the payload could not be decoded.
    public var decodingError: DecodingError? { underlyingError as? DecodingError }

    /// A sentence naming the route (and the request's path, when it differs), what went wrong and
    /// the start of the response body.
    ///
    /// For example: `GET /api/v1/users/{id}/cheers (/api/v1/users/42/cheers): the server answered
    /// 200 OK, but the body could not be decoded as App.UserCheers.ReturnPayloadType: the key
    /// "creator" is missing at history[0]. Response body (16 bytes): {"history":[{}]}`
    public var description: String {
        let path = request.map(Self.route(of:))
        var text = path == nil || path == route ? "\(route): \(reason)." : "\(route) (\(path!.drop { $0 != " " }.dropFirst())): \(reason)."
        if let failure = errorPayloadDecodingError {
            let why = (failure as? DecodingError).map(CodingPathText.describe) ?? "\(failure)"
            text += " The body is not the declared error payload: \(why)."
        }
        if let responseBody, !responseBody.isEmpty {
            text += " Response body (\(responseBody.count) bytes): \(Self.snippet(of: responseBody))"
        }
        return text
    }

    /// The same diagnostic as ``description``, for `debugPrint` and the debugger.
    public var debugDescription: String { description }

    /// The error with ``operationID`` set to `type`'s name, unless it already has one, and with
    /// `route` (the call's template) for the concrete method and path of its own request.
    package func naming(_ type: Any.Type, route template: String? = nil) -> EndpointError {
        var named = self
        if named.operationID == nil { named.operationID = Self.operationID(of: type) }
        if let template, let request, route == Self.route(of: request) { named.route = template }
        return named
    }

    /// The error of a middleware whose settings make no sense (a negative delay, a limit of zero),
    /// thrown before anything is sent: `"the RetryPolicy cannot be used: …"`.
    static func unusable(_ middleware: String, _ problem: String, request: URLRequest) -> EndpointError {
        EndpointError(
            kind: .invalidRequest, route: EndpointError.route(of: request),
            reason: "the \(middleware) cannot be used: \(problem)", request: request)
    }

    /// `PurchaseCheer`, `Billing.Invoices`: a type's name without its module, private contexts left
    /// out, every character but letters, digits, `.`, `_` and `-` made `_`. What ``operationID``,
    /// the OpenAPI `operationId` and the tool names are derived from.
    package static func operationID(of type: Any.Type) -> String {
        var full = String(reflecting: type)
        // Private types print as `Module.(unknown context at $55e9cc6cad64).Order`: keep `Order`.
        while let start = full.range(of: "(unknown context at "), let end = full[start.upperBound...].range(of: ").") {
            full.removeSubrange(start.lowerBound..<end.upperBound)
        }
        // Every qualified name starts with its module, generic arguments too:
        // `Demo.Page<Swift.Array<Demo.Cheer>>` is `Page_Array_Cheer`.
        var name = ""
        var segment = ""
        func flush() {
            if let dot = segment.firstIndex(of: ".") { segment = String(segment[segment.index(after: dot)...]) }
            name += segment
            segment = ""
        }
        for character in full {
            switch character {
            case "<", ",": flush(); name += "_"
            case ">", " ": flush()
            default: segment.append(character)
            }
        }
        flush()
        return String(name.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
    }

    /// `"POST /api/v2/purchase_cheer"`: the method and the percent-encoded path of `request`.
    package static func route(of request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        guard let url = request.url else { return method }
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return "\(method) \(path.isEmpty ? "/" : path)"
    }

    /// `"404 Not Found"`: the code and its RFC 9110 reason phrase, the same on every platform.
    static func statusText(_ status: Int) -> String {
        reasonPhrases[status].map { "\(status) \($0)" } ?? "\(status)"
    }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
        204: "No Content", 205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        416: "Range Not Satisfiable", 417: "Expectation Failed", 421: "Misdirected Request",
        422: "Unprocessable Content", 423: "Locked", 425: "Too Early", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]

    /// At most `limit` bytes of a body as text, with a note of how much was left out.
    package static func snippet(of body: Data, limit: Int = 512) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        return body.count > limit ? "\(text)… (\(body.count - limit) more bytes)" : text
    }
}

extension EndpointError {
    /// A broad category of ``EndpointError``, to branch on.
    ///
    /// ```swift
    /// if error.kind == .unacceptableStatus, error.statusCode == 404 { … }
    /// ```
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A short name of the kind, e.g. `"unacceptableStatus"`.
        public let description: String

        /// A kind named `description`: the optional products define theirs with it, and so may a
        /// middleware or a transport of yours.
        ///
        /// ```swift
        /// extension EndpointError.Kind {
        ///     static let circuitOpen = EndpointError.Kind(description: "circuitOpen")
        /// }
        /// ```
        public init(description: String) {
            self.description = description
        }

        /// The request could not be built, so nothing was sent: no server was configured, a path
        /// parameter is missing, or the URL or a parameter is invalid.
        public static let invalidRequest = Kind(description: "invalidRequest")
        /// The server answered with a status outside 200–299.
        public static let unacceptableStatus = Kind(description: "unacceptableStatus")
        /// The server answered with a content type the payload cannot be read from.
        public static let unexpectedContentType = Kind(description: "unexpectedContentType")
        /// The body could not be decoded as the endpoint's `ReturnPayloadType`.
        public static let decodingFailed = Kind(description: "decodingFailed")
        /// The request did not complete: connection refused, timed out, offline, TLS failure, ….
        public static let transportFailed = Kind(description: "transportFailed")
        /// The server redirected to a place EndpointKit does not follow: another scheme than `http`
        /// or `https`, or from `https` down to `http`. Nothing was sent there; ``response`` is the
        /// redirect answer and ``reason`` quotes its `Location`.
        public static let redirectRefused = Kind(description: "redirectRefused")
        /// The response body grew past the call's limit (``APIServer/maximumResponseSize``), so the
        /// call was stopped while the body arrived.
        public static let responseTooLarge = Kind(description: "responseTooLarge")
        /// The access token could not be refreshed, so the call was not authorized; the session
        /// has been signed out.
        public static let authorizationFailed = Kind(description: "authorizationFailed")
        /// A sequence of pages stopped because the server's pages did not end: a next page
        /// repeated one already fetched, or there were more than the sequence's `maximumPages`.
        public static let paginationFailed = Kind(description: "paginationFailed")
        /// The server reported an error in the middle of a streamed answer: an event of one of the
        /// ``StreamingOptions/errorEventTypes``, or an element that decodes as the error payload
        /// (in ``EndpointError/errorPayload``); or a streamed answer was read a second time.
        public static let streamError = Kind(description: "streamError")
        /// The server's rate limit is spent for longer than the call may wait (a
        /// ``RateLimitPolicy``'s `maximumWait`); nothing was sent. ``reason`` says for how long.
        public static let rateLimited = Kind(description: "rateLimited")
    }
}

extension EndpointError: LocalizedError {
    /// A short sentence for the people using the app, as `localizedDescription` and SwiftUI's
    /// `.alert` show it: what failed and the status, never the URL, the response body or other
    /// details that may hold personal data. ``description`` has the full diagnostic.
    ///
    /// ```swift
    /// .alert(isPresented: $failed) { Alert(title: Text(error.localizedDescription)) }
    /// // "The server answered 503 Service Unavailable."
    /// ```
    public var errorDescription: String? {
        switch kind {
        case .unacceptableStatus:
            statusCode.map { "The server answered \(EndpointError.statusText($0))." } ?? "The server refused the request."
        case .unexpectedContentType, .decodingFailed:
            "The server's answer could not be read."
        case .transportFailed:
            (underlyingError as? URLError)?.code == .timedOut ? "The request timed out." : "The server could not be reached."
        case .authorizationFailed:
            "The session has expired. Please sign in again."
        case .redirectRefused:
            "The server redirected to an address that is not allowed."
        case .responseTooLarge:
            "The server's answer was too large."
        case .paginationFailed:
            "The server's list of results did not end."
        case .streamError:
            "The server reported an error while sending its answer."
        case .rateLimited:
            "Too many requests were made. Please try again later."
        default:
            "The request could not be made."
        }
    }
}
