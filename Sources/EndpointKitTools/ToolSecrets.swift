import EndpointKit
import EndpointKitContract
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The credentials a tool call sent, and their removal from every text the model gets back.
///
/// A server may echo the request: a debugging endpoint, a 401 or 500 page that repeats the
/// headers, a body that fails to decode. Each request that leaves the middleware chain is
/// recorded here (through the call's attempt observer), and its secrets are:
/// - the values of `Authorization`, `Proxy-Authorization` and `Cookie`, and of every header an
///   authorization middleware registered; for `Scheme credentials` the credentials alone too;
///   for `Basic` also the decoded `user:password` pair, the user name and the password; for a cookie list each
///   cookie's value;
/// - the values of query parameters an authorization middleware registered.
///
/// Each is replaced wherever it appears in a JSON string or key of the result (also as a
/// substring), in the forms a server may echo it: as sent, percent-encoded with upper- or
/// lowercase hex, form-encoded, with `/` escaped as JSON may write it, and the Basic pair in
/// standard, unpadded and URL-safe base64. A value shorter than four characters is replaced only
/// where it is a whole string: as a substring it would blank out ordinary text.
final class ToolSecrets: Sendable {
    private let secrets = Locked<Set<String>>([])

    static let placeholder = "<redacted>"
    /// Shorter secrets are replaced only as whole strings.
    static let shortest = 4

    /// Records the credentials on `request`, as the chain sends it: the values of the names in
    /// `credentials` (what its middlewares registered).
    func record(_ request: URLRequest, credentials: CredentialNames) {
        var found: [String] = []
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            let lowercased = name.lowercased()
            guard credentials.containsHeader(lowercased) else { continue }
            found.append(value)
            if lowercased == "cookie" {
                for pair in value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") { found.append(String(pair[pair.index(after: equals)...])) }
                }
            } else if let space = value.firstIndex(of: " ") {
                let credentials = String(value[value.index(after: space)...]).trimmingCharacters(in: .whitespaces)
                found.append(credentials)
                if value[..<space].lowercased() == "basic", let pair = Data(base64Encoded: credentials).map({ String(decoding: $0, as: UTF8.self) }) {
                    found.append(pair)
                    if let colon = pair.firstIndex(of: ":") {
                        // The user name too: some APIs take the key as the user name (`sk_live_…:`).
                        found.append(String(pair[..<colon]))
                        found.append(String(pair[pair.index(after: colon)...]))
                    }
                    found += Self.base64Forms(of: Data(pair.utf8))
                }
            }
        }
        if !credentials.queryParameters.isEmpty, let url = request.url,
           let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems {
            for item in items where credentials.queryParameters.contains(item.name) {
                if let value = item.value { found.append(value) }
            }
        }
        let forms = found.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.flatMap(Self.forms)
        guard !forms.isEmpty else { return }
        secrets.withLock { $0.formUnion(forms) }
    }

    /// Whether no secret was recorded.
    var isEmpty: Bool { secrets.withLock { $0.isEmpty } }

    /// `value` with every recorded secret replaced, in its strings, keys and numbers.
    func redact(_ value: JSONValue) -> JSONValue {
        let secrets = self.secrets.withLock { $0 }
        guard !secrets.isEmpty else { return value }
        // Longest first, so that a secret inside a longer one does not leave the rest of it.
        let long = secrets.filter { $0.count >= Self.shortest }.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        return Self.redact(value, whole: secrets, long: long)
    }

    private static func redact(_ value: JSONValue, whole: Set<String>, long: [String]) -> JSONValue {
        func text(_ string: String) -> String {
            if whole.contains(string) { return placeholder }
            var result = string
            for secret in long where result.contains(secret) {
                result = result.replacingOccurrences(of: secret, with: placeholder)
            }
            return result
        }
        switch value {
        case .string(let string): return .string(text(string))
        case .number(let number): return whole.contains(number) ? .string(placeholder) : value
        case .array(let elements): return .array(elements.map { redact($0, whole: whole, long: long) })
        case .object(let members):
            return .object(members.map { JSONValue.Member(key: text($0.key), value: redact($0.value, whole: whole, long: long)) })
        case .null, .bool: return value
        }
    }

    /// The texts a server may echo `secret` as.
    private static func forms(of secret: String) -> [String] {
        let encoded = PercentEncoding.encode(secret)
        var forms: Set<String> = [secret, encoded, lowercasedEscapes(encoded), encoded.replacingOccurrences(of: "%20", with: "+")]
        forms.insert(secret.replacingOccurrences(of: "/", with: "\\/"))
        return Array(forms)
    }

    /// `%2f` for `%2F`: percent-encoding with lowercase hex digits.
    private static func lowercasedEscapes(_ text: String) -> String {
        var out = ""
        var remaining = 0
        for character in text {
            if character == "%" {
                remaining = 2
                out.append(character)
            } else if remaining > 0 {
                remaining -= 1
                out += character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Standard, unpadded and URL-safe base64 of `data`.
    private static func base64Forms(of data: Data) -> [String] {
        let standard = data.base64EncodedString()
        let unpadded = standard.replacingOccurrences(of: "=", with: "")
        let urlSafe = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return [standard, unpadded, urlSafe]
    }
}
