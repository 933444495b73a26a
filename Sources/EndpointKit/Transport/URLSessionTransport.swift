import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: a `URLSession` that EndpointKit configures and watches over.
///
/// It owns its session, with a session delegate that removes URLSession's traps on Linux
/// (swift-corelibs-foundation) and keeps behaviour the same on Apple platforms:
/// - an authentication challenge it has no credential for becomes a plain 401 response, body
///   included, instead of hanging forever;
/// - a 307 or 308 redirect of a request with a body is followed with the body intact (URLSession on
///   Linux would send an empty body);
/// - redirects go to `http` and `https` only, never from `https` down to `http`; any other
///   `Location` fails the call and nothing is sent there;
/// - `Authorization`, `Proxy-Authorization`, `Cookie` and the headers and query parameters that
///   authorization middlewares add are not sent on to another origin (scheme, host or port);
/// - the response body is counted as it arrives (after decompression) and the call fails once it
///   passes the server's ``Server/maximumResponseSize``;
/// - the configuration's `timeoutIntervalForResource` is enforced as a deadline for the whole
///   exchange (Linux ignores it), while `timeoutIntervalForRequest` stays an idle timeout;
/// - a call cancelled before its request starts sends nothing; cancelling a running call cancels the
///   request at once and throws `CancellationError`.
///
/// The default configuration is `.ephemeral` (cookies and caches live in memory only) with up to
/// ``defaultMaximumConnectionsPerHost`` connections per host.
///
/// ```swift
/// let configuration = URLSessionTransport.makeConfiguration()
/// configuration.timeoutIntervalForResource = 30  // whole-exchange deadline, in seconds
/// let server = Server(origin: origin, transport: URLSessionTransport(configuration: configuration))
/// ```
public final class URLSessionTransport: HTTPTransport {
    /// One transport shared by every ``Server`` that does not name its own, so that they share
    /// connections.
    public static let shared = URLSessionTransport()

    /// How many connections to one host the default configuration allows: 32, where URLSession's
    /// default is 6 (4 on iOS). Calls beyond the limit wait inside URLSession with their clocks
    /// running, so a low limit makes a burst of slow calls time out before they are sent.
    public static let defaultMaximumConnectionsPerHost = 32

    /// The most redirects one call follows before it fails with `URLError(.httpTooManyRedirects)`,
    /// counted the same way on every platform.
    public let maximumRedirects: Int

    private let session: URLSession
    /// A session without a cookie jar, for requests that carry their own `Cookie` header: URLSession
    /// on Linux replaces such a header with the jar's cookies and ignores `httpShouldHandleCookies`.
    /// Apple's URLSession honours that flag, so there the one session serves.
    private let cookielessSession: URLSession?
    private let delegate: SessionDelegate
    private let deadline: TimeInterval
    /// Whether requests wait for a network (Apple platforms): then `deadline` bounds the wait.
    private let waitsForConnectivity: Bool

    /// A new `.ephemeral` configuration with EndpointKit's connection limit and no URL cache, to
    /// adjust and pass to ``init(configuration:maximumRedirects:)``.
    ///
    /// On Apple platforms an ephemeral configuration still has an in-memory `URLCache` that
    /// answers by heuristic freshness: a repeated GET could be answered with nothing sent, and a
    /// `304` could reach ``HTTPCache`` rewritten as a `200`. EndpointKit caches with
    /// ``HTTPCache``, by the server's validators, so the session keeps nothing
    /// (`urlCache = nil`) and looks at no local data (`.reloadIgnoringLocalCacheData`); each request
    /// EndpointKit builds asks for the same.
    ///
    /// ```swift
    /// let configuration = URLSessionTransport.makeConfiguration()
    /// configuration.httpAdditionalHeaders = ["X-Client": "ios"]
    /// ```
    public static func makeConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = defaultMaximumConnectionsPerHost
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// A configuration like ``makeConfiguration()`` whose requests, on Apple platforms, wait up to
    /// `seconds` for a network instead of failing at once while the device is offline
    /// (`waitsForConnectivity`, with `timeoutIntervalForResource` as the longest wait).
    ///
    /// A call's deadline is then the longer of its own timeout and `seconds`, so that the wait is
    /// not cut short by ``Server/timeout``. As with any resource timeout here, EndpointKit enforces
    /// it and URLSession does not: a streamed body (Server-Sent Events, a download) is not cut off
    /// after `seconds`; only the wait for its head is bounded.
    ///
    /// On Linux it is ``makeConfiguration()`` unchanged: swift-corelibs-foundation does not
    /// implement waiting, and a request made offline fails at once (`.notConnectedToInternet` or
    /// `.cannotConnectToHost`), which a ``RetryPolicy`` may retry.
    ///
    /// ```swift
    /// let transport = URLSessionTransport(configuration: URLSessionTransport.makeConfiguration(waitingForConnectivityUpTo: 300))
    /// ```
    public static func makeConfiguration(waitingForConnectivityUpTo seconds: TimeInterval) -> URLSessionConfiguration {
        let configuration = makeConfiguration()
        #if !canImport(FoundationNetworking)
        // Apple's URLSession waits; corelibs-foundation (Linux) has no such behaviour to turn on.
        configuration.waitsForConnectivity = true
        configuration.timeoutIntervalForResource = seconds
        #endif
        return configuration
    }

    /// Creates a transport with its own session.
    ///
    /// ```swift
    /// let transport = URLSessionTransport(configuration: .ephemeral, maximumRedirects: 5)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The session configuration; EndpointKit enforces its
    ///     `timeoutIntervalForResource` itself. Defaults to ``makeConfiguration()``.
    ///   - maximumRedirects: How many redirects one call follows, of any status.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.makeConfiguration(), maximumRedirects: Int = 10) {
        delegate = SessionDelegate()
        deadline = configuration.timeoutIntervalForResource
        // EndpointKit enforces the resource timeout itself: for the whole of an answer, for the head
        // of a streamed one. Apple's URLSession would apply it to the whole task, cutting Server-Sent
        // Events and downloads after that many seconds, so its session gets URLSession's default.
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.timeoutIntervalForResource = Self.unlimitedResource
        #if canImport(FoundationNetworking)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: DelegateQueue())
        let cookieless = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
        cookieless.httpCookieStorage = nil
        cookieless.httpShouldSetCookies = false
        cookielessSession = URLSession(configuration: cookieless, delegate: delegate, delegateQueue: DelegateQueue())
        #else
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        cookielessSession = nil
        #endif
        #if canImport(FoundationNetworking)
        waitsForConnectivity = false  // Linux: URLSession never waits (see makeConfiguration(waitingForConnectivityUpTo:))
        #else
        waitsForConnectivity = configuration.waitsForConnectivity
        #endif
        self.maximumRedirects = maximumRedirects
    }

    /// URLSession's default resource timeout, 7 days, which sets no timer.
    static let unlimitedResource: TimeInterval = 7 * 24 * 3600

    /// The resource timeout of the session's own configuration, for tests.
    var sessionResourceTimeout: TimeInterval { session.configuration.timeoutIntervalForResource }

    deinit {
        session.finishTasksAndInvalidate()
        cookielessSession?.finishTasksAndInvalidate()
    }

    /// Sends `request`, following redirects, and returns the final response.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; a `URLError` when the
    ///   exchange fails (`.timedOut` past the resource deadline, `.httpTooManyRedirects`,
    ///   `.networkConnectionLost` when the body is cut off, …).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await wholeAnswer(to: request, bodyFile: nil)
    }

    /// Sends `request` with the contents of `file` as its body, read from disk as it goes out,
    /// following redirects (307 and 308 with the file again).
    ///
    /// - Throws: As ``send(_:)``.
    public func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse) {
        try await wholeAnswer(to: request, bodyFile: file)
    }

    /// Sends `request` (with the contents of `bodyFile` as its body, when there is one) and returns
    /// at the head of a 2xx response, its body streaming: each chunk reaches the stream as it
    /// arrives. While the stream's reader is behind, 1 MiB waits in memory and the rest in a
    /// temporary file, so memory stays flat; a reader more than 2 GiB behind fails the stream.
    /// (The task is not suspended: on Linux that sends the request again when it resumes.)
    /// Another status comes with its whole body (within the size limit), as from ``send(_:)``.
    ///
    /// A streamed body has no deadline: the configuration's `timeoutIntervalForResource` and the
    /// call's timeout limit the wait for the head only.
    ///
    /// - Throws: As ``send(_:)``; the stream itself ends with a `URLError` when the connection is
    ///   lost, or with `CancellationError` once its reader is gone.
    public func stream<E: Endpoint>(_ request: URLRequest, bodyFile: URL?, for endpoint: E) async throws -> (ByteStream, HTTPURLResponse) {
        switch try await answer(to: request, bodyFile: bodyFile, streams: true) {
        case .stream(let buffer, let response):
            return (ByteStream(buffer: buffer), response)
        case .response(let body, let response):
            return (ByteStream(body), response)
        default:
            throw URLError(.badServerResponse)  // `answer` returns only answers
        }
    }

    /// The whole answer to `request`: what ``send(_:)``, ``upload(_:fromFile:)`` and the endpoint-aware
    /// `send(_:bodyFile:for:)` (the ``HTTPTransport`` requirement) all come down to.
    private func wholeAnswer(to request: URLRequest, bodyFile: URL?) async throws -> (Data, HTTPURLResponse) {
        guard case .response(let body, let response) = try await answer(to: request, bodyFile: bodyFile, streams: false) else {
            throw URLError(.badServerResponse)  // an exchange that does not stream answers whole
        }
        return (body, response)
    }

    /// The final answer to `request`, after redirects: `.response` or `.stream`.
    private func answer(to request: URLRequest, bodyFile: URL?, streams: Bool) async throws -> Exchange.Outcome {
        var request = request
        // A scan of the names: `value(forHTTPHeaderField:)` lowercases every one with Foundation's
        // locale-aware `lowercased`, several thousand instructions a call.
        if request.allHTTPHeaderFields?.keys.contains(where: { HeaderRules.sameName($0, "Cookie") }) == true {
            request.httpShouldHandleCookies = false  // the app's own Cookie header, not the jar's
        }
        let session = request.httpShouldHandleCookies ? session : cookielessSession ?? session
        var redirects = 0
        while true {
            let outcome = await perform(request, bodyFile: bodyFile, streams: streams, on: session, redirectsSoFar: redirects)
            switch outcome {
            case .stream, .response:
                return outcome
            case .failure(let error):
                throw error
            case .reissue(let next, let count):
                redirects = count  // already checked against maximumRedirects by the exchange
                request = next
            }
        }
    }

    /// One exchange; 307/308 redirects of requests with bodies come back as `.reissue`.
    private func perform(
        _ request: URLRequest, bodyFile: URL?, streams: Bool, on session: URLSession, redirectsSoFar: Int
    ) async -> Exchange.Outcome {
        if Task.isCancelled { return .failure(CancellationError()) }  // never start a cancelled call
        let exchange = Exchange(
            request: request, uploadsFile: bodyFile != nil, scope: CallScope.current, streams: streams,
            maximumRedirects: maximumRedirects, redirectsSoFar: redirectsSoFar)
        // The call's timeout, or the configuration's resource timeout when shorter; URLSession's
        // own default for the latter is 7 days, which sets no timer. A session that waits for
        // connectivity may wait as long as its resource timeout, even past the call's.
        let resource = deadline < Self.unlimitedResource ? deadline : .infinity
        let call = exchange.scope.timeout ?? .infinity
        let deadline = waitsForConnectivity && resource.isFinite ? max(resource, call) : min(resource, call)
        return await withTaskCancellationHandler {
            await exchange.run(deadline: deadline) { [delegate] in
                let task = bodyFile.map { session.uploadTask(with: request, fromFile: $0) } ?? session.dataTask(with: request)
                delegate.register(exchange, for: task)
                return task
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}
