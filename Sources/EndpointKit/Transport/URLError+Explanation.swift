import Foundation

extension URLError {
    /// What happened, in words, with the detail a transport gave (``detailKey``) and the code for
    /// searching: `could not connect to the server (URLError -1004)`. Foundation's own text on
    /// Linux names only the domain and number.
    var explanation: String {
        let words: String
        switch code {
        case .cannotConnectToHost: words = "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: words = "the server's host name could not be resolved"
        case .timedOut: words = "the request timed out"
        case .notConnectedToInternet: words = "the device is offline"
        case .networkConnectionLost: words = "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            words = "a secure connection could not be established"
        case .httpTooManyRedirects: words = "there were too many redirects"
        case .badServerResponse: words = "the server's response was not valid HTTP"
        case .cannotParseResponse: words = "the server's answer could not be read"
        case .cancelled: words = "the request was cancelled"
        case .unsupportedURL: words = "the URL is not supported"
        case .appTransportSecurityRequiresSecureConnection:
            // Apple platforms only: App Transport Security blocks plain http:// unless Info.plist allows it.
            words = "App Transport Security refused a plain http:// connection: use https://, or allow it in the app's Info.plist (NSAppTransportSecurity with NSAllowsLocalNetworking for a server on localhost or the local network, NSExceptionDomains for one named host)"
        default: words = "the transport failed"
        }
        // EndpointKit's timeouts say which limit passed, a transport what it got; for an unknown
        // error, Foundation on Linux gives libcurl's own words (`Invalid Content-Length: value`).
        let detail = userInfo[URLError.detailKey] ?? (code == .unknown ? userInfo[NSLocalizedDescriptionKey] : nil)
        return "\(words)\((detail as? String).map { ": \($0)" } ?? "") (URLError \(code.rawValue))"
    }

    /// The `userInfo` key of what a transport adds to the words of ``explanation``: which limit a
    /// timeout passed, what an answer that could not be read held.
    ///
    /// ```swift
    /// URLError(.cannotParseResponse, userInfo: [URLError.detailKey: "a 307 whose body was cut"])
    /// ```
    package static let detailKey = "EndpointKitDetail"

    /// The error of an attempt that took longer than its timeout: `doing` says where it was.
    static func timeout(after seconds: TimeInterval, while doing: String? = nil) -> URLError {
        let description = doing.map { "the timeout of \(seconds) s passed while \($0)" } ?? "no answer within \(seconds) s"
        return URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: description, URLError.detailKey: description])
    }
}
