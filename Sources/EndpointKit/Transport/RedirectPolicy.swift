import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rules ``URLSessionTransport`` follows redirects by, for a transport of your own that
/// follows them itself:
/// - only `http` and `https`, never from `https` down to `http`; any other `Location` is refused
///   with ``TransportRefusal/redirect(location:reason:response:)`` and nothing is sent there;
/// - at most ``maximumRedirects`` per call, then `URLError(.httpTooManyRedirects)`;
/// - 307 and 308 keep the method and body; 303 becomes a `GET` without a body (a `HEAD` stays),
///   and so do 301 and 302 of a `POST`, as browsers and URLSession do;
/// - to another origin (scheme, host or port), the request loses `Authorization`,
///   `Proxy-Authorization`, `Cookie` and every credential an authorization middleware registered
///   (``TransportContext/credentials``), query parameters included.
///
/// ```swift
/// var request = request, redirects = 0
/// while true {
///     let response = try await client.send(request, body: body)
///     guard let next = try policy.redirection(after: response, to: request, redirectsSoFar: redirects, credentials: context.credentials) else {
///         return response
///     }
///     request = next.request
///     if !next.keepsBody { body = nil }
///     redirects += 1
/// }
/// ```
public struct RedirectPolicy: Sendable, Equatable {
    /// The most redirects one call follows.
    public var maximumRedirects: Int

    /// A policy that follows up to `maximumRedirects` redirects per call.
    ///
    /// ```swift
    /// let policy = RedirectPolicy(maximumRedirects: 5)
    /// ```
    public init(maximumRedirects: Int = 10) {
        self.maximumRedirects = maximumRedirects
    }

    /// The request to send after a redirect.
    public struct Redirection: Sendable {
        /// The next request: its URL, method and headers, credentials already removed when it
        /// leaves the origin.
        public var request: URLRequest
        /// Whether the body goes with it (307 and 308); otherwise send none.
        public var keepsBody: Bool
    }

    /// What to send after `response`, the answer to `request`; `nil` when `response` is not a
    /// redirect to follow (not 301, 302, 303, 307 or 308, or without a `Location`): return it to the
    /// caller as it is.
    ///
    /// ```swift
    /// let next = try policy.redirection(after: response, to: request, redirectsSoFar: 0, credentials: context.credentials)
    /// ```
    ///
    /// - Parameters:
    ///   - response: The answer, a redirect or not.
    ///   - request: The request it answers, as it was sent.
    ///   - redirectsSoFar: How many redirects this call has already followed.
    ///   - credentials: The call's credential names (``TransportContext/credentials``), left
    ///     behind when the redirect leaves the origin.
    /// - Throws: ``TransportRefusal/redirect(location:reason:response:)`` for a `Location` that is
    ///   not followed; `URLError(.httpTooManyRedirects)` past ``maximumRedirects``.
    public func redirection(
        after response: HTTPURLResponse, to request: URLRequest, redirectsSoFar: Int, credentials: CredentialNames
    ) throws -> Redirection? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode),
              let location = response.value(forHTTPHeaderField: "Location") else { return nil }
        guard redirectsSoFar < maximumRedirects else {
            throw URLError(.httpTooManyRedirects, userInfo: [
                NSLocalizedDescriptionKey: "more than \(maximumRedirects) redirects",
            ])
        }
        let base = response.url ?? request.url
        let target: URL
        switch Redirect.check(location, from: base) {
        case .success(let url): target = url
        case .failure(let refusal):
            throw TransportRefusal.redirect(location: location, reason: refusal.reason, response: response)
        }
        var next = request
        next.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        // RFC 9110 §15.4: 307 and 308 repeat the request; 303 asks for a GET; 301 and 302 of a POST
        // became GETs in practice, which the RFC allows.
        let keepsBody = switch response.statusCode {
        case 307, 308: true
        case 303: method == "HEAD"
        default: method != "POST"
        }
        if !keepsBody {
            if method != "HEAD" { next.httpMethod = "GET" }
            next.httpBody = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding"] { next.setValue(nil, forHTTPHeaderField: name) }
        }
        guard let stripped = Redirect.removingCredentials(next, leaving: base ?? target, credentials: credentials) else {
            throw TransportRefusal.redirect(location: location, reason: Redirect.unstrippable, response: response)
        }
        return Redirection(request: stripped, keepsBody: keepsBody)
    }
}
