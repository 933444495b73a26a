import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: redirect and authentication policy.
///
/// It must be the session's delegate, not a per-task one: on Linux per-task delegates never hear
/// of redirects or challenges.
final class SessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // `rejected` is a `Locked`, which guards itself; the class has no other state.
    private let rejected = Locked<[Int: HTTPURLResponse]>([:])

    /// The 401 response of a task whose authentication challenge was declined, once.
    func takeRejectedChallenge(for taskIdentifier: Int) -> HTTPURLResponse? {
        rejected.withLock { $0.removeValue(forKey: taskIdentifier) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        if Redirect.mustKeepBody(task.originalRequest, uploadsFile: task is URLSessionUploadTask, status: response.statusCode) {
            completionHandler(nil)  // URLSessionTransport follows it with the body
        } else {
            completionHandler(Redirect.removingCredentials(request, unlessSameOriginAs: response.url))
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // On Linux, default handling of an HTTP challenge hangs forever. Decline it and report the
        // 401 (without its body, which libcurl has dropped by now) as an ordinary response.
        let response = (challenge.failureResponse as? HTTPURLResponse)
            ?? task.originalRequest?.url.flatMap {
                HTTPURLResponse(url: $0, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: [:])
            }
        if let response {
            rejected.withLock { $0[task.taskIdentifier] = response }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        // Apple's URLSession answers a 401 it has no credential for with the response itself, and
        // handles server trust; keep its behaviour.
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
