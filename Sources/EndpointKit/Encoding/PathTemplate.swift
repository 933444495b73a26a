/// A parsed endpoint path such as `repos/{owner}/{repo}/branches`.
struct PathTemplate {
    private enum Part {
        case literal(Substring)
        case placeholder(String)
    }

    private let parts: [Part]
    /// The property names the placeholders bind, e.g. `["owner", "repo"]`.
    let names: Set<String>

    /// Parses `template`; `nil` when its braces do not pair up or a placeholder has no name.
    init?(_ template: String) {
        var parts: [Part] = []
        var names: Set<String> = []
        var rest = template[...]
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{",
                  let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = rest[rest.index(after: open)..<close]
            guard !name.isEmpty, !name.contains("{") else { return nil }
            parts.append(.literal(rest[..<open]))
            parts.append(.placeholder(String(name)))
            names.insert(String(name))
            rest = rest[rest.index(after: close)...]
        }
        parts.append(.literal(rest))
        self.parts = parts
        self.names = names
    }

    /// The path with each placeholder replaced by its value as one percent-encoded segment, and
    /// the characters a URL may not hold in the literal text percent-encoded (`my files` →
    /// `my%20files`).
    ///
    /// - Returns: The path, or the first placeholder whose value is missing, empty, `.` or `..`.
    func render(with values: [String: String]) -> Result<String, MissingValue> {
        var path = ""
        for part in parts {
            switch part {
            case .literal(let text):
                path += PercentEncoding.escapingDisallowed(in: text)
            case .placeholder(let name):
                guard let value = values[name] else { return .failure(MissingValue(name: name, problem: .missing)) }
                // `.` and `..` have no literal spelling in RFC 3986: `%2E%2E` is turned back into a
                // dot segment by WHATWG URL parsers (browsers, Node, many proxies), so the route
                // would climb. Refuse them rather than send them.
                switch value {
                case "": return .failure(MissingValue(name: name, problem: .empty))
                case ".", "..": return .failure(MissingValue(name: name, problem: .dotSegment(value)))
                default: path += PercentEncoding.encode(value)
                }
            }
        }
        return .success(path)
    }

    /// A placeholder the endpoint gave no usable value for.
    struct MissingValue: Error {
        enum Problem {
            case missing, empty
            /// `.` or `..`, which would climb the path.
            case dotSegment(String)
        }

        let name: String
        let problem: Problem
    }
}
