import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirect rules that URLSession on Linux gets wrong.
enum Redirect {
    /// Headers that carry credentials; they are not sent on to another origin.
    static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// Whether a request with a body must be redirected by EndpointKit rather than by URLSession
    /// (which sends 307/308 redirects on with an empty body on Linux). `uploadsFile` tells that the
    /// body is sent from a file rather than from the request.
    static func mustKeepBody(_ request: URLRequest?, uploadsFile: Bool = false, status: Int) -> Bool {
        (status == 307 || status == 308)
            && (uploadsFile || request?.httpBody != nil || request?.httpBodyStream != nil)
    }

    /// The request to send after a 307 or 308 answer to a request with a body: same method, same
    /// body, new URL; `nil` when `response` is not such a redirect.
    static func requestKeepingBody(
        _ request: URLRequest, uploadsFile: Bool = false, after response: HTTPURLResponse
    ) -> URLRequest? {
        guard mustKeepBody(request, uploadsFile: uploadsFile, status: response.statusCode),
              let location = response.value(forHTTPHeaderField: "Location"),
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        return removingCredentials(next, unlessSameOriginAs: request.url)
    }

    /// `request` without credential headers when its URL's origin differs from `previous`: the
    /// standard ones, and any whose name mentions a key, token, secret, password, session or auth
    /// (`X-API-Key`, `X-Auth-Token`, …), as logs redact them.
    static func removingCredentials(_ request: URLRequest, unlessSameOriginAs previous: URL?) -> URLRequest {
        guard let previous, let url = request.url, !isSameOrigin(previous, url) else { return request }
        var stripped = request
        for header in credentialHeaders {
            stripped.setValue(nil, forHTTPHeaderField: header)
        }
        let redaction = Redaction(fields: [])
        for name in (stripped.allHTTPHeaderFields ?? [:]).keys where redaction.redactsHeader(name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    static func isSameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased()
            && effectivePort(first) == effectivePort(second)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
