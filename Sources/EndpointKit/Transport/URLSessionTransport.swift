import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: a `URLSession` that EndpointKit configures and watches over.
///
/// It owns its session, with a session delegate that removes URLSession's traps on Linux
/// (swift-corelibs-foundation) and keeps behaviour the same on Apple platforms:
/// - an authentication challenge it has no credential for becomes a plain 401 response instead of
///   hanging forever;
/// - a 307 or 308 redirect of a request with a body is followed with the body intact (URLSession on
///   Linux would send an empty body);
/// - `Authorization`, `Proxy-Authorization` and `Cookie` are not sent on to another origin
///   (scheme, host or port) when following a redirect;
/// - the configuration's `timeoutIntervalForResource` is enforced as a deadline for the whole
///   exchange (Linux ignores it), while `timeoutIntervalForRequest` stays an idle timeout;
/// - cancelling the calling task cancels the request at once and throws `CancellationError`.
///
/// The default configuration is `.ephemeral`: cookies and caches live in memory only.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.timeoutIntervalForResource = 30  // whole-exchange deadline, in seconds
/// let server = Server(origin: origin, transport: URLSessionTransport(configuration: configuration))
/// ```
public final class URLSessionTransport: HTTPTransport {
    /// One transport shared by every ``Server`` that does not name its own, so that they share
    /// connections.
    public static let shared = URLSessionTransport()

    /// The most redirects of a request with a body that are followed before giving up.
    public let maximumRedirects: Int

    private let session: URLSession
    private let delegate: SessionDelegate
    private let deadline: TimeInterval

    /// Creates a transport with its own session.
    ///
    /// ```swift
    /// let transport = URLSessionTransport(configuration: .ephemeral, maximumRedirects: 5)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The session configuration; EndpointKit enforces its
    ///     `timeoutIntervalForResource` itself.
    ///   - maximumRedirects: How many 307/308 redirects of a request with a body to follow.
    public init(configuration: URLSessionConfiguration = .ephemeral, maximumRedirects: Int = 10) {
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        deadline = configuration.timeoutIntervalForResource
        self.maximumRedirects = maximumRedirects
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`, following redirects, and returns the final response.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; a `URLError` when the
    ///   exchange fails (`.timedOut` past the resource deadline, `.httpTooManyRedirects`, …).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await send(request, bodyFile: nil)
    }

    /// Sends `request` with the contents of `file` as its body, read from disk as it goes out,
    /// following redirects (307 and 308 with the file again).
    ///
    /// - Throws: As ``send(_:)``.
    public func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse) {
        try await send(request, bodyFile: file)
    }

    private func send(_ request: URLRequest, bodyFile: URL?) async throws -> (Data, HTTPURLResponse) {
        var request = request
        var redirects = 0
        while true {
            let (body, response) = try await perform(request, bodyFile: bodyFile)
            guard let next = Redirect.requestKeepingBody(request, uploadsFile: bodyFile != nil, after: response) else {
                return (body, response)
            }
            redirects += 1
            guard redirects <= maximumRedirects else { throw URLError(.httpTooManyRedirects) }
            request = next
        }
    }

    /// One exchange, without following redirects of requests with bodies.
    private func perform(_ request: URLRequest, bodyFile: URL?) async throws -> (Data, HTTPURLResponse) {
        let exchange = Exchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { [delegate] data, response, error in
                    let outcome = exchange.finish()
                    if let error {
                        if let challenged = delegate.takeRejectedChallenge(for: outcome.taskIdentifier) {
                            continuation.resume(returning: (Data(), challenged))
                        } else if outcome.timedOut {
                            continuation.resume(throwing: URLError(.timedOut))
                        } else if outcome.cancelled {
                            continuation.resume(throwing: CancellationError())
                        } else {
                            continuation.resume(throwing: error)
                        }
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let task = bodyFile.map { session.uploadTask(with: request, fromFile: $0, completionHandler: completion) }
                    ?? session.dataTask(with: request, completionHandler: completion)
                exchange.start(task, deadline: deadline)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}
