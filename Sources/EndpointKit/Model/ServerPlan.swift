import Foundation

/// What every request to one ``APIServer`` starts from, worked out when the server is configured
/// rather than on each call: the URL up to the endpoint's path for each API version, and the
/// server's headers, validated, with `Accept` defaulted.
package final class ServerPlan: Sendable {
    /// The start of every URL, for one version: origin and expanded prefix.
    struct Base: Sendable {
        /// `https://example.com/api/v2`: the origin without a trailing slash, then the prefix.
        let url: String
        /// `/api/v2`: the prefix alone, for error messages.
        let prefix: String
    }

    /// The origin without a trailing slash, e.g. `https://example.com/base`.
    package let origin: String
    private let pathPrefix: String
    /// Bases by version, filled in as versions are used.
    private let bases = Locked<[Int: Base]>([:])
    /// The server's headers, with `Accept: application/json` unless they name another `Accept`.
    let headers: [String: String]
    /// Why a server header cannot be sent (a header injection, an invalid name), reported by every
    /// call; `nil` when they are all fine.
    let headerProblem: String?

    init(origin: URL, pathPrefix: String, headers: [String: String]) {
        var originText = origin.absoluteString
        if originText.hasSuffix("/") { originText.removeLast() }
        self.origin = originText
        self.pathPrefix = pathPrefix
        headerProblem = headers.lazy.compactMap { HeaderRules.problem(name: $0.key, value: $0.value) }.first
        var defaulted = headers
        if !headers.keys.contains(where: { HeaderRules.sameName($0, "Accept") }) {
            defaulted["Accept"] = "application/json"
        }
        self.headers = defaulted
    }

    /// The start of the URL for `version`, under the server's prefix or the endpoint's own.
    func base(version: Int, prefix ownPrefix: String? = nil) -> Base {
        if let ownPrefix {
            let prefix = Self.expandedPrefix(ownPrefix, version: version)
            return Base(url: origin + prefix, prefix: prefix)
        }
        if let known = bases.withLock({ $0[version] }) { return known }
        let prefix = Self.expandedPrefix(pathPrefix, version: version)
        let base = Base(url: origin + prefix, prefix: prefix)
        bases.withLock { bases in
            if bases.count >= 64 { bases.removeAll() }  // versions are few; this only bounds the odd case
            bases[version] = base
        }
        return base
    }

    /// `/api/v{version}` → `/api/v2`; always with a leading slash and no trailing one, or empty.
    package static func expandedPrefix(_ prefix: String, version: Int) -> String {
        let replaced = prefix.replacingPlaceholder("{version}", with: String(version))
        var expanded = String(PercentEncoding.escapingDisallowed(in: replaced[...]))
        while expanded.hasSuffix("/") { expanded.removeLast() }
        if !expanded.isEmpty && !expanded.hasPrefix("/") { expanded.insert("/", at: expanded.startIndex) }
        return expanded
    }
}

private extension String {
    /// The string with every `placeholder` replaced by `value`, comparing bytes (no Foundation).
    func replacingPlaceholder(_ placeholder: String, with value: String) -> String {
        let bytes = Array(utf8)
        let pattern = Array(placeholder.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == pattern[0], bytes[index...].starts(with: pattern) {
                result += value.utf8
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
