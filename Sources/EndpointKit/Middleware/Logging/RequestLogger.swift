import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes one line per request and one per response to a sink of your choice, with secrets
/// redacted.
///
/// ```
/// --> POST /api/v2/purchase_cheer (54-byte body)
/// <-- 200 OK POST /api/v2/purchase_cheer (12 ms, 15-byte body)
/// ```
///
/// Verbose mode adds the headers and the bodies (cut to `bodyLimit` bytes). Redaction is always
/// on and goes by what a name means: headers, query parameters and JSON or form fields whose name
/// (or any part of a bracketed name such as `user[password]`) speaks of a password, token, secret,
/// key, signature, session, cookie, PIN, one-time code and the like show `<redacted>`, and so do the
/// names authorization middlewares set (an API key's query parameter, say), any names you add,
/// and the user info of a URL (`https://user:pw@host`).
///
/// ```swift
/// server.middlewares = [RequestLogger(verbose: true, redacting: ["pin"]) { line in logger.debug("\(line)") }]
/// ```
///
/// Logging is off until you add a `RequestLogger`. Put it first in ``APIServer/middlewares`` to log
/// each call once, or after a ``RetryPolicy`` to log every attempt.
public struct RequestLogger: EndpointMiddleware {
    /// Whether to log headers and bodies too.
    public var verbose: Bool
    /// Whether to log each request as a `curl` command as well (redacted).
    public var logsCURL: Bool
    /// The most body bytes a verbose line shows.
    public var bodyLimit: Int
    private let redaction: Redaction
    private let sink: @Sendable (String) -> Void

    /// Creates a logger.
    ///
    /// ```swift
    /// let logger = RequestLogger { print($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - verbose: Log headers and bodies too. Defaults to `false`.
    ///   - logsCURL: Log each request as a `curl` command as well. Defaults to `false`.
    ///   - bodyLimit: The most body bytes to show. Defaults to 1,024.
    ///   - redacting: More query parameters, body fields and headers to hide, by name.
    ///   - sink: Receives each log entry. Defaults to `print`.
    public init(
        verbose: Bool = false,
        logsCURL: Bool = false,
        bodyLimit: Int = 1024,
        redacting: Set<String> = [],
        sink: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.verbose = verbose
        self.logsCURL = logsCURL
        self.bodyLimit = bodyLimit
        redaction = Redaction(fields: redacting)
        self.sink = sink
    }

    /// Logs the request, passes it on, and logs the response or the failure.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        let method = request.httpMethod ?? "GET"
        let redaction = redaction.adding(context.credentials)  // what authorization registered
        let target = redaction.pathAndQuery(of: request.url)
        var line = "--> \(method) \(target)" + (body?.count.map { " (\($0)-byte body)" } ?? "")
        if verbose {
            line += headerLines(request.allHTTPHeaderFields ?? [:], redaction)
            if case .data(let bytes) = body {
                line += bodyLines(bytes, contentType: request.value(forHTTPHeaderField: "Content-Type"), redaction)
            }
        }
        sink(line)
        if logsCURL {
            let bytes: Data? = if case .data(let bytes) = body { bytes } else { nil }
            sink(curlCommand(for: request, body: bytes, credentials: context.credentials))
        }

        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> String { "\((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000) ms" }
        do {
            let (answer, response) = try await next(request, body)
            var line = "<-- \(EndpointError.statusText(response.statusCode)) \(method) \(target) (\(elapsed()), "
            switch answer {
            case .data(let bytes): line += "\(bytes.count)-byte body)"
            case .stream: line += "body streaming)"  // it has not arrived yet: the line marks the head
            }
            if verbose {
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
                line += headerLines(headers, redaction)
                if case .data(let bytes) = answer {
                    line += bodyLines(bytes, contentType: response.value(forHTTPHeaderField: "Content-Type"), redaction)
                }
            }
            sink(line)
            return (answer, response)
        } catch {
            let reason = error is CancellationError ? "cancelled" : (error as? URLError)?.explanation ?? "\(error)"
            sink("<-- failed \(method) \(target) (\(elapsed())): \(reason)")
            throw error
        }
    }

    /// `request` with `body` (or its own `httpBody`) as a `curl` command line, with secrets
    /// redacted; bodies longer than `bodyLimit` are cut.
    ///
    /// ```swift
    /// print(RequestLogger().curlCommand(for: request, body: json))
    /// // curl -X POST 'https://example.com/api/v2/purchase_cheer' -H 'Authorization: <redacted>' …
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body; `request.httpBody` when `nil`.
    ///   - credentials: More header and query names to hide whatever they are called: in a
    ///     middleware, pass `context.credentials`, the names the call's authorization registered.
    public func curlCommand(for request: URLRequest, body: Data? = nil, credentials: CredentialNames = CredentialNames()) -> String {
        let redaction = redaction.adding(credentials)
        var parts = ["curl"]
        let method = request.httpMethod ?? "GET"
        if method != "GET" { parts.append(method == "HEAD" ? "--head" : "-X \(method)") }
        parts.append(Self.quoted(redaction.redactedURL(request.url)))
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts.append("-H " + Self.quoted("\(name): \(redaction.redacts(name) ? Redaction.placeholder : value)"))
        }
        if let body = body ?? request.httpBody, !body.isEmpty {
            parts.append("--data-binary " + Self.quoted(redaction.body(body, contentType: request.value(forHTTPHeaderField: "Content-Type"), limit: bodyLimit)))
        }
        return parts.joined(separator: " ")
    }

    private func headerLines(_ headers: [String: String], _ redaction: Redaction) -> String {
        headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            "\n    \(name): \(redaction.redacts(name) ? Redaction.placeholder : value)"
        }.joined()
    }

    private func bodyLines(_ body: Data?, contentType: String?, _ redaction: Redaction) -> String {
        guard let body, !body.isEmpty else { return "" }
        return "\n    " + redaction.body(body, contentType: contentType, limit: bodyLimit)
    }

    /// Single-quoted for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
