/// A parsed endpoint path such as `repos/{owner}/{repo}/branches`.
///
/// Endpoints describe their path with the same literal on every call, so ``parsed(_:)`` parses
/// each text once and keeps the result: a call then only fills in the values.
package struct PathTemplate: Sendable {
    private enum Part: Sendable {
        /// Literal text, already percent-encoded where a URL may not hold it as it is.
        case literal(String)
        case placeholder(String)
        /// `{+name}`: RFC 6570's reserved expansion, kept to a path: the value's `/` separate
        /// segments, each one percent-encoded.
        case segments(String)
    }

    private let parts: [Part]
    /// The property names the placeholders bind, e.g. `["owner", "repo"]`.
    package let names: Set<String>
    /// Whether the literal text carries a query (`search?sort=stars`), so that more parameters
    /// are joined with `&`.
    package let hasQuery: Bool

    /// The template for `path`, parsed on first use; `nil` when its braces do not pair up or a
    /// placeholder has no name.
    package static func parsed(_ path: String) -> PathTemplate? {
        if let known = cache.withLock({ $0[path] }) { return known }
        let parsed = PathTemplate(path)
        cache.withLock { cache in
            // Paths built at run time (`"users/\(id)"`) would make the cache grow without end: it
            // starts afresh past a size no set of literal paths reaches.
            if cache.count >= 1_024 { cache.removeAll(keepingCapacity: true) }
            cache[path] = parsed
        }
        return parsed
    }

    /// Parsed templates by their text; `nil` for a text that does not parse.
    private static let cache = Locked<[String: PathTemplate?]>([:])

    /// Parses `path`, without its leading slashes.
    init?(_ path: String) {
        let utf8 = path.utf8
        var parts: [Part] = []
        var names: Set<String> = []
        var literalStart = utf8.firstIndex { $0 != UInt8(ascii: "/") } ?? utf8.endIndex
        var index = literalStart
        while index < utf8.endIndex {
            switch utf8[index] {
            case UInt8(ascii: "}"):
                return nil
            case UInt8(ascii: "{"):
                let nameStart = utf8.index(after: index)
                guard let close = utf8[nameStart...].firstIndex(where: { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "{") }),
                      utf8[close] == UInt8(ascii: "}"), close > nameStart else { return nil }
                var name = String(path[nameStart..<close])
                parts.append(.literal(String(PercentEncoding.escapingDisallowed(in: path[literalStart..<index]))))
                if name.hasPrefix("+") {
                    name.removeFirst()
                    guard !name.isEmpty else { return nil }
                    parts.append(.segments(name))
                } else {
                    parts.append(.placeholder(name))
                }
                names.insert(name)
                index = utf8.index(after: close)
                literalStart = index
            default:
                index = utf8.index(after: index)
            }
        }
        parts.append(.literal(String(PercentEncoding.escapingDisallowed(in: path[literalStart...]))))
        self.parts = parts
        self.names = names
        hasQuery = parts.contains { part in
            if case .literal(let text) = part { text.utf8.contains(UInt8(ascii: "?")) } else { false }
        }
    }

    /// The template as OpenAPI writes a path: the literal text, each placeholder as `{name}`.
    package var openAPIPath: String {
        parts.map { part in
            switch part {
            case .literal(let text): text
            case .placeholder(let name), .segments(let name): "{\(name)}"
            }
        }.joined()
    }

    /// The names of `{+name}` placeholders, whose values may hold `/`.
    package var multiSegmentNames: Set<String> {
        Set(parts.compactMap { if case .segments(let name) = $0 { name } else { nil } })
    }

    /// The path with each placeholder replaced by its value as one percent-encoded segment, and
    /// the characters a URL may not hold in the literal text percent-encoded (`my files` →
    /// `my%20files`), appended to `url`.
    ///
    /// A `{+name}` placeholder's value is several segments: `library/ubuntu` →
    /// `library/ubuntu`, `a b/c` → `a%20b/c`; each segment obeys the rules of a `{name}` value.
    ///
    /// - Returns: The first placeholder whose value is missing, empty, `.` or `..` (or, for
    ///   `{+name}`, has such a segment), or `nil`.
    package func render(with values: [String: String], into url: inout String) -> MissingValue? {
        for part in parts {
            switch part {
            case .literal(let text):
                url += text
            case .placeholder(let name):
                guard let value = values[name] else { return MissingValue(name: name, problem: .missing) }
                if let problem = Self.append(segment: value[...], to: &url) { return MissingValue(name: name, problem: problem) }
            case .segments(let name):
                guard let value = values[name] else { return MissingValue(name: name, problem: .missing) }
                for (index, segment) in value.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
                    if index > 0 { url += "/" }
                    if let problem = Self.append(segment: segment, to: &url) {
                        return MissingValue(name: name, problem: problem, inSegments: value)
                    }
                }
            }
        }
        return nil
    }

    /// Appends one percent-encoded path segment, or says why it cannot be one.
    private static func append(segment: Substring, to url: inout String) -> MissingValue.Problem? {
        // `.` and `..` have no literal spelling in RFC 3986: `%2E%2E` is turned back into a dot
        // segment by WHATWG URL parsers (browsers, Node, many proxies), so the route would climb.
        // Refuse them rather than send them.
        switch segment {
        case "": return .empty
        case ".", "..": return .dotSegment(String(segment))
        default:
            url += PercentEncoding.encode(String(segment))
            return nil
        }
    }

    /// A placeholder the endpoint gave no usable value for.
    package struct MissingValue: Error {
        enum Problem {
            case missing, empty
            /// `.` or `..`, which would climb the path.
            case dotSegment(String)
        }

        let name: String
        let problem: Problem
        /// The whole value of a `{+name}` placeholder one of whose segments is the problem.
        var inSegments: String?
    }
}
