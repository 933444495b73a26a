import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What EndpointKit does with a redirect: which ones it follows, what it sends on, and what stays
/// behind when the redirect leaves the origin.
package enum Redirect {
    /// What to do with one redirect answer.
    enum Decision {
        /// Let URLSession send `request` (it has already been stripped of credentials if needed).
        case follow(URLRequest)
        /// Stop URLSession and send `request` again ourselves: a 307/308 of a request with a body,
        /// which URLSession on Linux would send with an empty body.
        case reissue(URLRequest)
        /// Stop: `location` may not be followed, for `reason`. Nothing is sent there.
        case refuse(location: String, reason: String)
        /// Stop and hand the redirect answer to the caller (it has no `Location`).
        case deliver
    }

    /// Whether a redirect from `current` to `proposed` counts toward `maximumRedirects`: every one
    /// does but an upgrade of the same URL from `http` to `https`, which Apple's URLSession makes
    /// up for a host on its HSTS list (a 307 that reaches the delegate) before anything is sent.
    /// The server asked for nothing, so `maximumRedirects: 0` must not fail the call.
    static func counts(from current: URL?, to proposed: URL?) -> Bool {
        guard let current, let proposed,
              current.scheme?.lowercased() == "http", proposed.scheme?.lowercased() == "https",
              var upgraded = URLComponents(url: current, resolvingAgainstBaseURL: false),
              let target = URLComponents(url: proposed, resolvingAgainstBaseURL: false)
        else { return true }
        upgraded.scheme = "https"
        if upgraded.port == 80 { upgraded.port = nil }
        var normalized = target
        normalized.scheme = "https"
        if normalized.port == 443 { normalized.port = nil }
        return upgraded.host?.lowercased() != normalized.host?.lowercased() || upgraded.port != normalized.port
            || upgraded.percentEncodedPath != normalized.percentEncodedPath
            || upgraded.percentEncodedQuery != normalized.percentEncodedQuery || upgraded.user != normalized.user
    }

    /// Decides what follows `response`, a redirect answer to `current` (the request as last sent,
    /// not the task's original one). `proposed` is the request URLSession would send.
    static func decide(
        after response: HTTPURLResponse, current: URLRequest, proposed: URLRequest,
        uploadsFile: Bool, credentials: CredentialNames
    ) -> Decision {
        guard let location = response.value(forHTTPHeaderField: "Location") else { return .deliver }
        let base = response.url ?? current.url
        let target: URL
        switch check(location, from: base) {
        case .success(let url): target = url
        case .failure(let refusal): return .refuse(location: location, reason: refusal.reason)
        }
        let previous = base ?? target
        #if canImport(FoundationNetworking)
        // URLSession on Linux sends 307/308 redirects of a request with a body with an empty body,
        // so EndpointKit sends them itself. Apple's URLSession keeps the body: there it follows.
        let keepsBody = response.statusCode == 307 || response.statusCode == 308  // RFC 9110 §15.4.8, §15.4.9
        let reissues = keepsBody && (uploadsFile || current.httpBody != nil || current.httpBodyStream != nil)
        #else
        let reissues = false
        #endif
        // URLSession on Linux rewrites `file:` locations onto the origin: always send the URL the
        // server named (already checked above), never a rewritten one.
        var next = reissues ? current : proposed
        next.url = target
        guard let stripped = removingCredentials(next, leaving: previous, credentials: credentials) else {
            return .refuse(location: location, reason: Self.unstrippable)
        }
        return reissues ? .reissue(stripped) : .follow(stripped)
    }

    /// Why a `Location` is not followed.
    struct Refusal: Error {
        let reason: String
    }

    /// The URL `location` names, resolved against `base` (the URL that answered), when it may be
    /// followed: `http` or `https`, and never from `https` down to `http`.
    static func check(_ location: String, from base: URL?) -> Result<URL, Refusal> {
        // Escaped first so that a Location with a space or raw UTF-8 means the same URL on every OS
        // (iOS 15–16 would not parse it at all; see `PercentEncoding.escapingDisallowed`).
        guard let target = PercentEncoding.resolve(location, against: base) else {
            return .failure(Refusal(reason: "it is not a valid URL"))
        }
        let scheme = target.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(Refusal(reason: "only http and https redirects are followed"))
        }
        if base?.scheme?.lowercased() == "https" && scheme == "http" {
            return .failure(Refusal(reason: "it would downgrade https to http"))
        }
        return .success(target)
    }

    static let unstrippable = "the API key could not be removed from its query for another origin"

    /// `request` without credentials when it goes to another origin than `previous`:
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, and every header and query parameter an
    /// authorization middleware registered. Everything else (an `Idempotency-Key`, say) follows.
    ///
    /// - Returns: `nil` when a query credential cannot be taken out of the URL: the redirect is
    ///   refused rather than sent with it.
    static func removingCredentials(_ request: URLRequest, leaving previous: URL, credentials: CredentialNames) -> URLRequest? {
        guard let url = request.url, !isSameOrigin(previous, url) else { return request }
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys {
            if credentials.containsHeader(name) {
                stripped.setValue(nil, forHTTPHeaderField: name)
            }
        }
        if !credentials.queryParameters.isEmpty {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            guard let items = components.percentEncodedQueryItems else { return stripped }
            let kept = items.filter { item in
                !credentials.containsQueryParameter(item.name.removingPercentEncoding ?? item.name)
            }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
            guard let clean = components.url else { return nil }
            stripped.url = clean
        }
        return stripped
    }

    static func isSameOrigin(_ first: URL, _ second: URL) -> Bool {
        origin(of: first) == origin(of: second)
    }

    /// `https://api.example.com`, `http://127.0.0.1:8080`: scheme, host and port, lowercased, the
    /// port left out when it is the scheme's default. Two URLs have the same origin when these are
    /// equal.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let defaultPort = scheme == "http" ? 80 : scheme == "https" ? 443 : nil
        let port = url.port ?? defaultPort
        return "\(scheme)://\(url.host?.lowercased() ?? "")\(port != defaultPort ? port.map { ":\($0)" } ?? "" : "")"
    }
}
