extension RequestLogger {
    /// A logger and the stream of its lines, for app code that shows them: the sink is called on
    /// whatever thread a call runs on, while a loop over the stream runs on your actor, so a
    /// main-actor view model can keep the lines without a `@Sendable` closure.
    ///
    /// ```swift
    /// let (logger, lines) = RequestLogger.makeStream(verbose: true)
    /// server.middlewares = [logger]
    /// for await line in lines { console.append(line) }  // on the main actor in app code
    /// ```
    ///
    /// The stream keeps at most `bufferingNewest` lines that nobody has read yet, dropping the
    /// oldest; it never ends.
    ///
    /// - Parameters:
    ///   - verbose: Log headers and bodies too. Defaults to `false`.
    ///   - logsCURL: Log each request as a `curl` command as well. Defaults to `false`.
    ///   - bodyLimit: The most body bytes to show. Defaults to 1,024.
    ///   - redacting: More query parameters, body fields and headers to hide, by name.
    ///   - bufferingNewest: How many unread lines the stream keeps. Defaults to 1,000.
    public static func makeStream(
        verbose: Bool = false, logsCURL: Bool = false, bodyLimit: Int = 1024, redacting: Set<String> = [],
        bufferingNewest: Int = 1_000
    ) -> (logger: RequestLogger, lines: AsyncStream<String>) {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(bufferingNewest))
        let logger = RequestLogger(verbose: verbose, logsCURL: logsCURL, bodyLimit: bodyLimit, redacting: redacting) { line in
            continuation.yield(line)
        }
        return (logger, lines)
    }
}
