import Foundation

/// What a log must not show: credentials in headers, query parameters, form and JSON fields, and
/// URL user info.
///
/// A name is secret by what it means, not by an exact list. It is split into words at brackets,
/// punctuation and camelCase humps (`user[newPassword]` → user, new, password) and is secret when:
/// - its words run together contain a secret stem (`password`, `token`, `secret`, `apikey`,
///   `privatekey`, `signature`, `session`, `cookie`, `csrf`, `jwt`, …), so `new_password`,
///   `auth_token`, `session_id`, `X-CSRF-Token`, `X-Signature` are secret;
/// - or one word is a short secret word (`key`, `pin`, `otp`, `auth`, `sig`, `pwd`, …), or `code`
///   alone or after `auth`, `verification`, `otp`, … (`code`, `auth_code`, not `country_code`);
/// - or it is a name the app passed to ``RequestLogger``, or one of the call's ``credentials``
///   (the names authorization middlewares registered, `APIKeyAuthorization(queryParameter: "appid")`,
///   which a middleware reads as ``MiddlewareContext/credentials`` and a transport as
///   ``TransportContext/credentials``).
package struct Redaction: Sendable {
    package static let placeholder = "<redacted>"

    static let secretStems = [
        "password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey",
        "signingkey", "clientkey", "credential", "signature", "session", "authorization", "cookie",
        "csrf", "xsrf", "jwt", "bearer",
    ]
    static let secretWords: Set<String> = [
        "key", "pin", "otp", "totp", "hotp", "auth", "sig", "pwd", "pass", "sid", "ssn", "cvv", "cvc",
    ]
    /// Words before `code` that make it a one-time secret.
    static let codeQualifiers: Set<String> = [
        "auth", "authorization", "oauth", "verification", "confirmation", "otp", "mfa", "sms",
        "reset", "recovery", "security", "device", "user", "login",
    ]
    /// Names that look secret but are not credentials, and must stay readable.
    static let notSecret: Set<String> = ["idempotencykey"]

    /// More names from the app, as word lists.
    let extraNames: Set<String>

    /// The call's registered credentials: secret whatever their names say.
    package var credentials: CredentialNames

    package init(fields: Set<String>, credentials: CredentialNames = CredentialNames()) {
        extraNames = Set(fields.map { Self.words(of: $0).joined() })
        self.credentials = credentials
    }

    /// This redaction, hiding `credentials` as well: for one call.
    package func adding(_ credentials: CredentialNames) -> Redaction {
        var copy = self
        copy.credentials.headers.formUnion(credentials.headers)
        copy.credentials.queryParameters.formUnion(credentials.queryParameters)
        return copy
    }

    /// `user[newPassword]` → `["user", "new", "password"]`.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previousWasLower = false
        for character in name {
            if !(character.isLetter || character.isNumber) {
                if !word.isEmpty { words.append(word.lowercased()) }
                word = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower && !word.isEmpty {
                words.append(word.lowercased())
                word = ""
            }
            word.append(character)
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words
    }

    /// Whether `name` (a header, query parameter or body field) names a secret in this call.
    package func redacts(_ name: String) -> Bool {
        if credentials.containsHeader(name) || credentials.containsQueryParameter(name) {
            return true
        }
        let words = Self.words(of: name)
        let joined = words.joined()
        if Self.notSecret.contains(joined) { return false }
        if !extraNames.isEmpty {
            // Each part of a bracketed name counts on its own: `user[member_number]`.
            let parts = name.split(whereSeparator: { $0 == "[" || $0 == "]" }).map { Self.words(of: String($0)).joined() }
            if extraNames.contains(joined) || parts.contains(where: extraNames.contains) { return true }
        }
        if Self.secretStems.contains(where: joined.contains) { return true }
        for (index, word) in words.enumerated() {
            if Self.secretWords.contains(word) { return true }
            if word == "code", index == 0 ? words.count == 1 : Self.codeQualifiers.contains(words[index - 1]) {
                return true
            }
        }
        return false
    }

    /// A URL for a log or a `curl` line: user info replaced, secret query values replaced.
    package func redactedURL(_ url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.map { _ in Self.placeholder } ?? ""
        }
        let hadUserInfo = components.percentEncodedUser != nil || components.percentEncodedPassword != nil
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        let query = components.percentEncodedQuery
        components.percentEncodedQuery = nil
        var text = components.string ?? ""
        if hadUserInfo, let separator = text.range(of: "://") {
            text.insert(contentsOf: Self.placeholder + "@", at: separator.upperBound)
        }
        if let query {
            let fragment = text.firstIndex(of: "#").map { String(text[$0...]) } ?? ""
            text.removeLast(fragment.count)
            text += "?" + redactedPairs(query) + fragment
        }
        return text
    }

    /// A URL's path and query with secret parameter values replaced.
    func pathAndQuery(of url: URL?) -> String {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let query = components.percentEncodedQuery else { return path }
        return path + "?" + redactedPairs(query)
    }

    /// `a=1&password=x` → `a=1&password=<redacted>`, for query strings and form bodies.
    package func redactedPairs(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[0])
            return redacts(name) && parts.count == 2 ? "\(parts[0])=\(Self.placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    /// A body as loggable text: JSON with secret fields replaced (at any depth), a form with secret
    /// pairs replaced, other text as it is, multipart and binary as a byte count; at most `limit`
    /// bytes.
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

    /// A JSON value with the values of secret fields replaced, at any depth.
    package func redact(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { key, inner in (key, redacts(key) ? Self.placeholder : redact(inner)) })
        case let array as [Any]:
            return array.map(redact)
        default:
            return value
        }
    }
}
