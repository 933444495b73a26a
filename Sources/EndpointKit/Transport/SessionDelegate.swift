import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``: it routes every callback to the task's
/// ``Exchange`` and applies the redirect and authentication policy.
///
/// It must be the session's delegate, not a per-task one: on Linux per-task delegates never hear
/// of redirects or challenges. It is a data delegate (tasks have no completion handlers) so that
/// bytes are counted as they arrive and a 401's body is kept on Linux.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `exchanges` is a `Locked`, which guards itself; the class has no other state.
    // Keyed by the task object: task identifiers are unique per session only, and a transport may
    // run two sessions with this delegate.
    private let exchanges = Locked<[ObjectIdentifier: Exchange]>([:])

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[ObjectIdentifier(task)] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        #if canImport(FoundationNetworking)
        // Linux keeps the count at 0 for data tasks, and reading it costs a lock and a queue hop.
        exchange(for: dataTask)?.receive(data, receivedSoFar: 0)
        #else
        exchange(for: dataTask)?.receive(data, receivedSoFar: dataTask.countOfBytesReceived)
        #endif
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        guard let report = exchange(for: task)?.context.uploadProgress else { return }
        report(TransferProgress(completed: totalBytesSent, expected: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        exchange?.complete(error: error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Answered from another queue: on Linux the handler may wait for the session's work queue.
        let answer: @Sendable (URLRequest?) -> Void = { next in SessionCalls.queue(for: task).async { completionHandler(next) } }
        guard let exchange = exchange(for: task) else { return answer(nil) }
        // The request as last sent: after a 302 turned a POST into a GET, that GET, not the POST.
        let current = task.currentRequest ?? exchange.request
        // An HSTS upgrade of the same URL is Apple's URLSession's own doing, not a redirect.
        let counted = response.value(forHTTPHeaderField: "Location") != nil && Redirect.counts(from: current.url, to: request.url)
        guard !counted || exchange.countRedirect() else { return answer(nil) }
        switch Redirect.decide(
            after: response, current: current, proposed: request, uploadsFile: exchange.uploadsFile, credentials: exchange.context.credentials) {
        case .follow(let next):
            return answer(next)
        case .reissue(let next):
            exchange.reissue(next)
        case .refuse(let location, let reason):
            exchange.refuse(location: location, reason: reason, response: response)
        case .deliver:
            break
        }
        answer(nil)  // URLSession delivers the 3xx; the exchange sends it again, refuses it or hands it on
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // On Linux, default handling of an HTTP challenge hangs forever. Decline it; the 401's
        // headers and body have already reached `urlSession(_:dataTask:didReceive:)`, and the
        // exchange returns them as an ordinary response.
        exchange(for: task)?.declineChallenge(failureResponse: challenge.failureResponse as? HTTPURLResponse)
        // Declining cancels the task, which waits for the session's work queue: not on this thread.
        SessionCalls.queue(for: task).async { completionHandler(.cancelAuthenticationChallenge, nil) }
        #else
        // Apple's URLSession answers a 401 it has no credential for with the response itself, and
        // handles server trust; keep its behaviour.
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
