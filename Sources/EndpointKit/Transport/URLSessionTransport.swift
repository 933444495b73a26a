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
///   passes the server's ``APIServer/maximumResponseSize``;
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
/// let server = APIServer(origin: origin, transport: URLSessionTransport(configuration: configuration))
/// ```
public final class URLSessionTransport: HTTPTransport {
    /// One transport shared by every ``APIServer`` that does not name its own, so that they share
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
    /// The call's own timeout (``APIServer/timeout``, or the endpoint's) still bounds each attempt,
    /// as it does for every transport: give calls that should wait this long a timeout of at least
    /// `seconds`. As with any resource timeout here, EndpointKit enforces it and URLSession does not: a streamed body (Server-Sent Events, a download) is not cut off
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

    /// The rules this transport follows redirects by (`http` and `https` only, credentials
    /// stripped off the origin, at most ``maximumRedirects``).
    ///
    /// ```swift
    /// let policy = URLSessionTransport.shared.redirectPolicy
    /// ```
    public var redirectPolicy: RedirectPolicy { RedirectPolicy(maximumRedirects: maximumRedirects) }

    /// Sends `request` with `body`, following redirects, and returns the final response.
    ///
    /// A body on disk (``ByteStream/fileURL``) is uploaded from its file; a stream a middleware
    /// made is written to a temporary file first, so that a 307 or 308 can send it again.
    ///
    /// When ``TransportContext/streamsResponse`` is set, a 2xx answer returns at its head, its
    /// body streaming: each chunk reaches the stream as it arrives. While the stream's reader is
    /// behind, 1 MiB waits in memory and the rest in a temporary file, so memory stays flat; a
    /// reader more than 2 GiB behind fails the stream. (The task is not suspended: on Linux that
    /// sends the request again when it resumes.) Another status comes with its whole body.
    ///
    /// ```swift
    /// let (body, response) = try await URLSessionTransport.shared.send(request, body: nil, context: context)
    /// ```
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; a `URLError` when the
    ///   exchange fails (`.timedOut` past the configuration's resource timeout,
    ///   `.httpTooManyRedirects`, `.networkConnectionLost` when the body is cut off, …); a
    ///   ``TransportRefusal`` for a redirect not followed or a body past the size limit. A stream
    ///   ends with a `URLError` when the connection is lost, or `CancellationError` once its
    ///   reader is gone.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        var bodyFile: URL?
        var spooled: TemporaryFile?
        switch body {
        case .data(let bytes)?:
            request.httpBody = bytes
        case .stream(let stream)?:
            if let file = stream.fileURL {
                bodyFile = file
            } else {
                spooled = try await Self.spool(stream)
                bodyFile = spooled?.url
            }
        case nil:
            break
        }
        defer { withExtendedLifetime(spooled) {} }  // a spooled body lives until the exchange ends
        switch try await answer(to: request, bodyFile: bodyFile, context: context) {
        case .stream(let buffer, let response):
            return (.stream(ByteStream(buffer: buffer)), response)
        case .response(let body, let response):
            return (.data(body), response)
        default:
            throw URLError(.badServerResponse)  // `answer` returns only answers
        }
    }

    /// Writes a stream a middleware made to a temporary file, which URLSession uploads from.
    private static func spool(_ stream: ByteStream) async throws -> TemporaryFile {
        // A stream already sent or read throws `TransportRefusal.streamAlreadyRead` at its first chunk.
        let file = try TemporaryFile(kind: "body")
        let handle = try FileHandle(forWritingTo: file.url)
        defer { try? handle.close() }
        for try await chunk in stream {
            try handle.write(contentsOf: chunk)
        }
        return file
    }

    /// The final answer to `request`, after redirects: `.response` or `.stream`.
    private func answer(to request: URLRequest, bodyFile: URL?, context: TransportContext) async throws -> Exchange.Outcome {
        var request = request
        // A scan of the names: `value(forHTTPHeaderField:)` lowercases every one with Foundation's
        // locale-aware `lowercased`, several thousand instructions a call.
        if request.allHTTPHeaderFields?.keys.contains(where: { HeaderRules.sameName($0, "Cookie") }) == true {
            request.httpShouldHandleCookies = false  // the app's own Cookie header, not the jar's
        }
        let session = request.httpShouldHandleCookies ? session : cookielessSession ?? session
        var redirects = 0
        while true {
            let outcome = await perform(request, bodyFile: bodyFile, context: context, on: session, redirectsSoFar: redirects)
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
        _ request: URLRequest, bodyFile: URL?, context: TransportContext, on session: URLSession, redirectsSoFar: Int
    ) async -> Exchange.Outcome {
        if Task.isCancelled { return .failure(CancellationError()) }  // never start a cancelled call
        let exchange = Exchange(
            request: request, uploadsFile: bodyFile != nil, context: context, streams: context.streamsResponse,
            maximumRedirects: maximumRedirects, redirectsSoFar: redirectsSoFar)
        // The configuration's resource timeout; URLSession's own default for it is 7 days, which
        // sets no timer. The call's own deadline is EndpointKit's to enforce, for every transport.
        let deadline = deadline < Self.unlimitedResource ? deadline : .infinity
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
