import Foundation

/// What a log must not show: credential headers, secret query parameters and body fields.
///
/// Names match in any case and with or without `_` and `-`, so `accessToken`, `access_token` and
/// `Access-Token` are one name.
struct Redaction: Sendable {
    static let placeholder = "<redacted>"

    /// Headers redacted by default; any header whose name contains `auth`, `cookie`, `token`,
    /// `secret`, `password`, `session` or `key` is redacted too.
    static let defaultHeaders: Set<String> = ["authorization", "proxyauthorization", "cookie", "setcookie"]
    static let sensitiveHeaderWords = ["auth", "cookie", "token", "secret", "password", "session", "key"]

    /// Query parameters and body fields redacted by default.
    static let defaultFields: Set<String> = [
        "password", "passwd", "secret", "token", "accesstoken", "refreshtoken", "idtoken",
        "clientsecret", "apikey", "key", "authorization", "signature",
    ]

    let fields: Set<String>

    init(fields: Set<String>) {
        self.fields = Self.defaultFields.union(fields.map(Self.normalized))
    }

    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    func redactsHeader(_ name: String) -> Bool {
        let normalized = Self.normalized(name)
        return Self.defaultHeaders.contains(normalized) || fields.contains(normalized)
            || Self.sensitiveHeaderWords.contains { normalized.contains($0) }
    }

    func redactsField(_ name: String) -> Bool {
        fields.contains(Self.normalized(name))
    }

    /// A URL's path and query with secret parameter values replaced.
    func pathAndQuery(of url: URL?) -> String {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let query = components.percentEncodedQuery else { return path }
        return path + "?" + redactedPairs(query)
    }

    /// `a=1&password=x` → `a=1&password=<redacted>`, for query strings and form bodies.
    func redactedPairs(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            return redactsField(name) && parts.count == 2 ? "\(parts[0])=\(Self.placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    /// A body as loggable text: JSON with secret fields replaced (at any depth), a form with secret
    /// pairs replaced, other text as it is, binary as a byte count; at most `limit` bytes.
    func body(_ data: Data, contentType: String?, limit: Int) -> String {
        guard !data.isEmpty else { return "" }
        let type = contentType?.lowercased() ?? ""
        var text: String
        if type.contains("json"), let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
           let redacted = try? JSONSerialization.data(withJSONObject: redact(object), options: [.sortedKeys, .fragmentsAllowed]) {
            text = String(decoding: redacted, as: UTF8.self)
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            text = redactedPairs(String(decoding: data, as: UTF8.self))
        } else if type.hasPrefix("multipart/") {
            return "(\(data.count)-byte multipart body)"
        } else if let string = String(data: data, encoding: .utf8), !string.contains("\u{0}") {
            text = string
        } else {
            return "(\(data.count) bytes of binary data)"
        }
        if text.utf8.count > limit {
            text = String(decoding: text.utf8.prefix(limit), as: UTF8.self) + "… (\(text.utf8.count - limit) more bytes)"
        }
        return text
    }

    private func redact(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, inner) in object {
                result[key] = redactsField(key) ? Self.placeholder : redact(inner)
            }
            return result
        case let array as [Any]:
            return array.map(redact)
        default:
            return value
        }
    }
}
