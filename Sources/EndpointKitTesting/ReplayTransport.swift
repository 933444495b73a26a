import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that records real exchanges to files in a directory, then replays them with no
/// network: tests that run against answers a real server once gave.
///
/// Record once against the real server (or a staging one), commit the directory, and replay ever
/// after:
///
/// ```swift
/// let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recordings")
/// let mode: ReplayTransport.Mode = ProcessInfo.processInfo.environment["RECORD"] == nil ? .replay : .record()
/// let server = APIServer(origin: URL(string: "https://api.example.com")!,
///                     transport: ReplayTransport(directory: recordings, mode: mode))
/// ```
///
/// - **Recording** sends each request through the wrapped transport and writes the exchange to
///   a readable JSON file (see the README for its shape): method, URL, headers and body of the
///   request as the middlewares left it, and status, headers and body of the response. Secrets
///   are redacted by `RequestLogger`'s rules (headers, query parameters, JSON and form fields
///   such as `Authorization`, `api_key`, `password`, `access_token`), and so are the names given
///   in `redacting`. Recording a request again replaces its file.
/// - **Replaying** answers a request from the recording with the same method, URL and body (JSON
///   bodies match whatever their key order; secret values are compared redacted, so any value
///   matches). Identical requests recorded several times are answered in the order recorded, the
///   last repeating. A request with no recording fails with `EndpointError/Kind/notStubbed`,
///   naming it; nothing reaches the network.
///
/// JSON bodies are stored as JSON, so a replayed JSON body has the same content but may differ in
/// key order and spacing; text is kept as it is, binary bodies in base64. A multipart request
/// body is stored as its size and is not compared (its boundary changes on every call). Failures
/// of the exchange itself (no connection, a timeout) are not recorded.
public final class ReplayTransport: HTTPTransport {
    /// Whether a ``ReplayTransport`` records or replays.
    ///
    /// ```swift
    /// let mode: ReplayTransport.Mode = ProcessInfo.processInfo.environment["RECORD"] == nil ? .replay : .record()
    /// ```
    public struct Mode: Sendable {
        /// The transport to record from; `nil` when replaying.
        let recordedTransport: (any HTTPTransport)?

        /// Sends each request through `transport` and writes the exchange to the directory.
        ///
        /// ```swift
        /// let transport = ReplayTransport(directory: recordings, mode: .record(wrapping: URLSessionTransport.shared))
        /// ```
        public static func record(wrapping transport: any HTTPTransport = URLSessionTransport.shared) -> Mode {
            Mode(recordedTransport: transport)
        }

        /// Answers each request from the directory, with no network.
        ///
        /// ```swift
        /// let transport = ReplayTransport(directory: recordings, mode: .replay)
        /// ```
        public static let replay = Mode(recordedTransport: nil)
    }

    /// Where the recordings are.
    public let directory: URL
    /// Whether this transport records or replays.
    public let mode: Mode
    private let redaction: Redaction
    private let state = Locked(State())

    private struct State: Sendable {
        /// Replay: the recorded answers by request key, in the order recorded; `nil` until read.
        var recordings: [String: [RecordedAnswer]]?
        /// Replay: how many times each key has been answered.
        var used: [String: Int] = [:]
        /// Record: how many exchanges of each key this transport has written.
        var written: [String: Int] = [:]
    }

    /// A recorded response, ready to replay.
    private struct RecordedAnswer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data
        /// The request's method and URL, to say what is recorded when nothing matches.
        let target: String
        let requestBody: String
    }

    /// Creates a transport that records into, or replays from, `directory`.
    ///
    /// ```swift
    /// let transport = ReplayTransport(directory: recordings, mode: .replay)
    /// ```
    ///
    /// - Parameters:
    ///   - directory: Where the recording files are; recording creates it.
    ///   - mode: ``Mode/record(wrapping:)`` or ``Mode/replay``.
    ///   - redacting: More query parameters, body fields and headers to hide, by name, besides those
    ///     `RequestLogger` hides anyway.
    public init(directory: URL, mode: Mode, redacting: Set<String> = []) {
        self.directory = directory
        self.mode = mode
        redaction = Redaction(fields: redacting)
    }

    // MARK: - HTTPTransport

    /// Records or replays the exchange of `request`, a call of the context's endpoint; the
    /// endpoint's operation ID is written in the recording. A streamed answer is recorded (and
    /// replayed) whole.
    ///
    /// ```swift
    /// let (body, response) = try await transport.send(request, body: nil, context: TransportContext(input: Me()))
    /// ```
    ///
    /// - Throws: `EndpointError/Kind/notStubbed` when replaying a request that has no recording;
    ///   whatever the wrapped transport throws when recording.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var sent = body
        let bytes: Data
        switch body {
        case .data(let data)?: bytes = data
        case .stream(let stream)? where stream.fileURL != nil: bytes = try Data(contentsOf: stream.fileURL!, options: .alwaysMapped)
        case .stream(let stream)?:
            bytes = try await stream.collect(upTo: .max)  // read once: what is sent is what is recorded
            sent = .data(bytes)
        case nil: bytes = Data()
        }
        let redaction = redaction.adding(context.credentials)
        guard let transport = mode.recordedTransport else {
            let (answer, response) = try replay(request, body: bytes, redaction: redaction)
            return (.data(answer), response)
        }
        let (answer, response) = try await transport.send(request, body: sent, context: context)
        let responseBody = try await answer.collect(upTo: context.maximumResponseSize ?? .max)
        try record(RecordedExchange(
            operationID: context.operationID, request: request, body: bytes, response: response,
            responseBody: responseBody, redaction: redaction), request: request)
        return (.data(responseBody), response)
    }

    // MARK: - Recording

    private func record(_ exchange: RecordedExchange, request: URLRequest) throws {
        let key = exchange.key
        let prefix = RecordedExchange.filePrefix(forKey: key, method: exchange.method, url: exchange.url)
        do {
            let number = try state.withLock { state -> Int in
                let number = state.written[key, default: 0] + 1
                state.written[key] = number
                if number == 1 {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    try removeFiles(startingWith: prefix)  // an earlier recording of this request
                }
                return number
            }
            try exchange.fileContents().write(to: directory.appendingPathComponent(exchange.fileName(number: number)), options: .atomic)
        } catch {
            throw EndpointError(
                kind: .transportFailed, route: EndpointError.route(of: request),
                reason: "the answer arrived but could not be recorded in \(directory.path): \(error)",
                request: request, underlyingError: error)
        }
    }

    private func removeFiles(startingWith prefix: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where name.hasPrefix(prefix) && name.hasSuffix(".json") {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    // MARK: - Replaying

    private func replay(_ request: URLRequest, body: Data, redaction: Redaction) throws -> (Data, HTTPURLResponse) {
        let method = request.httpMethod ?? "GET"
        let url = redaction.redactedURL(request.url)
        let requestBody = RecordedBody(body, contentType: request.value(forHTTPHeaderField: "Content-Type"), redaction: redaction)
        let key = RecordedExchange.key(method: method, url: url, body: requestBody)
        let recordings = try recordings(for: request)
        let (answer, similar) = state.withLock { state -> (RecordedAnswer?, [RecordedAnswer]) in
            guard let answers = recordings[key], !answers.isEmpty else {
                let target = "\(method) \(url)"
                return (nil, recordings.values.joined().filter { $0.target == target })
            }
            let used = state.used[key, default: 0]
            state.used[key] = used + 1
            return (answers[min(used, answers.count - 1)], [])
        }
        guard let answer else {
            var reason = "no recording in \(directory.path) matches \(method) \(url)"
                + (requestBody.matchingText.isEmpty ? "" : " with body \(EndpointError.snippet(of: Data(requestBody.matchingText.utf8), limit: 200))")
                + ", so nothing was sent; record it with ReplayTransport.Mode.record()"
            if let other = similar.first {
                reason += ". \(similar.count) recording\(similar.count == 1 ? "" : "s") of \(method) \(url) \(similar.count == 1 ? "has" : "have") another body, e.g. \(EndpointError.snippet(of: Data(other.requestBody.utf8), limit: 200))"
            }
            throw EndpointError(kind: .notStubbed, route: EndpointError.route(of: request), reason: reason, request: request)
        }
        let response = try StubbedResponse.make(url: request.url ?? directory, status: answer.status, headers: answer.headers)
        return (answer.body, response)
    }

    /// The recordings, read from the directory on first use.
    private func recordings(for request: URLRequest) throws(EndpointError) -> [String: [RecordedAnswer]] {
        if let loaded = state.withLock({ $0.recordings }) {
            return loaded
        }
        let loaded = try loadRecordings(for: request)
        return state.withLock { state in
            if state.recordings == nil { state.recordings = loaded }  // unless another call was first
            return state.recordings ?? loaded
        }
    }

    /// Every recording in the directory, by request key, each key's in the order recorded.
    private func loadRecordings(for request: URLRequest) throws(EndpointError) -> [String: [RecordedAnswer]] {
        func failure(_ reason: String) -> EndpointError {
            EndpointError(kind: .notStubbed, route: EndpointError.route(of: request), reason: reason, request: request)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        } catch {
            throw failure("the recordings cannot be read: \(directory.path) is not a readable directory (\(error)); record them first with ReplayTransport.Mode.record()")
        }
        var numbered: [String: [(number: Int, answer: RecordedAnswer)]] = [:]
        for name in names {
            let file = directory.appendingPathComponent(name)
            let exchange: RecordedExchange
            do {
                exchange = try RecordedExchange(file: Data(contentsOf: file))
            } catch let problem as RecordedExchange.FileProblem {
                throw failure("the recording \(file.path) cannot be replayed: \(problem.description)")
            } catch {
                throw failure("the recording \(file.path) cannot be read: \(error)")
            }
            // `…-<number>.json`: the how-manieth identical request it was.
            let number = Int(name.dropLast(".json".count).split(separator: "-").last ?? "") ?? 1
            let answer = RecordedAnswer(
                status: exchange.status, headers: exchange.responseHeaders, body: exchange.responseBody.bytes,
                target: "\(exchange.method) \(exchange.url)", requestBody: exchange.requestBody.matchingText)
            numbered[exchange.key, default: []].append((number, answer))
        }
        return numbered.mapValues { $0.sorted { $0.number < $1.number }.map(\.answer) }
    }
}
