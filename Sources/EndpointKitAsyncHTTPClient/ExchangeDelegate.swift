#if AsyncHTTPClient && !os(watchOS)  // the trait that brings AsyncHTTPClient; never on a watch (TN3135)
import AsyncHTTPClient
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// One exchange of ``AsyncHTTPClientTransport``, fed by AsyncHTTPClient on its event loop: it
/// hands the caller the answer's head and body, counts the body against the size limit, and
/// reports the upload.
///
/// A 2xx answer to a call that streams goes to the caller at its head; its body goes into a
/// `ByteStream` whose producer tells the event loop to read on only when the reader has room
/// (`write(_:whenReady:)`), so a slow reader slows the connection instead of filling memory. Any
/// other answer is collected and handed over whole when it ends.
final class ExchangeDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    private struct State {
        var continuation: CheckedContinuation<(MessageBody, HTTPURLResponse), any Error>?
        var task: HTTPClient.Task<Void>?
        var cancelled = false
        var response: HTTPURLResponse?
        var body = Data()
        var received = 0
        var sent: Int64 = 0
        var producer: ByteStream.Producer?
    }

    private let url: URL
    private let context: TransportContext
    private let uploadSize: Int64?
    private let state = Locked(State())

    init(url: URL, context: TransportContext, uploadSize: Int64?) {
        self.url = url
        self.context = context
        self.uploadSize = uploadSize
    }

    /// Starts the exchange with `execute`, unless the call was cancelled first; `continuation`
    /// gets the answer, or the failure.
    func start(_ continuation: CheckedContinuation<(MessageBody, HTTPURLResponse), any Error>, _ execute: () -> HTTPClient.Task<Void>) {
        let cancelled = state.withLock { state -> Bool in
            state.continuation = continuation
            return state.cancelled
        }
        if cancelled { return finish(throwing: CancellationError()) }
        let task = execute()
        let cancelledMeanwhile = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelledMeanwhile { task.cancel() }
        task.futureResult.whenComplete { [self] result in
            switch result {
            case .success: finishWhole()
            case .failure(let error): finish(throwing: error)
            }
        }
    }

    /// The caller was cancelled: the connection closes, and the call ends with `CancellationError`.
    func cancel() {
        let task = state.withLock { state -> HTTPClient.Task<Void>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    // MARK: - AsyncHTTPClient's side

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        guard let report = context.uploadProgress else { return }
        let sent = state.withLock { state -> Int64 in
            state.sent += Int64(part.readableBytes)
            return state.sent
        }
        report(TransferProgress(completed: sent, expected: uploadSize))
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            // Repeated fields (Link, Set-Cookie) join as one, as HTTPURLResponse holds them.
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        guard let response = HTTPURLResponse(
            url: url, statusCode: Int(head.status.code), httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            headerFields: fields) else {
            return task.eventLoop.makeFailedFuture(URLError(.badServerResponse))
        }
        // The size limit is for answers read whole. A streamed 2xx (an event stream, a download)
        // is read piece by piece, as over URLSessionTransport, so it has none.
        guard context.streamsResponse, (200..<300).contains(response.statusCode) else {
            if let limit = context.maximumResponseSize, let declared = head.headers.first(name: "Content-Length").flatMap(Int.init),
               declared > limit, (head.headers.first(name: "Content-Encoding") ?? "identity").lowercased() == "identity" {
                return task.eventLoop.makeFailedFuture(TransportRefusal.tooLarge(limit: limit, response: response))
            }
            state.withLock { $0.response = response }
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let (stream, producer) = ByteStream.makeStream(idleTimeout: context.idleTimeout) { task.cancel() }
        let continuation = state.withLock { state in
            state.response = response
            state.producer = producer
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: (.stream(stream), response))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (producer, response, overLimit) = state.withLock { state -> (ByteStream.Producer?, HTTPURLResponse?, Int?) in
            if let producer = state.producer { return (producer, state.response, nil) }
            state.received += buffer.readableBytes
            if let limit = context.maximumResponseSize, state.received > limit { return (nil, state.response, limit) }
            state.body.append(contentsOf: buffer.readableBytesView)
            return (nil, state.response, nil)
        }
        if let limit = overLimit {
            return task.eventLoop.makeFailedFuture(TransportRefusal.tooLarge(limit: limit, response: response))
        }
        guard let producer else { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        producer.write(Data(buffer.readableBytesView)) { promise.succeed() }
        return promise.futureResult
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}

    // MARK: - The end

    /// The exchange ended cleanly: a stream ends, or the whole answer goes to the caller.
    private func finishWhole() {
        let (continuation, producer, answer) = state.withLock { state in
            defer { state.continuation = nil; state.body = Data() }
            return (state.continuation, state.producer, state.response.map { (MessageBody.data(state.body), $0) })
        }
        producer?.finish()
        guard let continuation else { return }
        if let answer { continuation.resume(returning: answer) } else { continuation.resume(throwing: URLError(.badServerResponse)) }
    }

    /// The exchange failed: before the head, the call fails; after it, the stream does.
    ///
    /// One failure is an answer: AsyncHTTPClient stops an upload once the head of a 300-or-more
    /// answer arrives (`requestStreamCancelled`), and fails the task if the upload had not ended
    /// by then. A server that read the whole body and answered 307 meets that as often as its
    /// answer overtakes the upload's last step (a few uploads in a hundred to a WSGI app under
    /// werkzeug's `make_server`). A redirect is handed over as it came, its body unread (what is
    /// sent next is the body again); any other answer only when all of its declared body has
    /// arrived.
    private func finish(throwing error: any Error) {
        let (continuation, producer, cancelled, answer) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.producer, state.cancelled, Self.answer(stoppedBy: error, in: state))
        }
        if !cancelled, let answer, let continuation {
            state.withLock { $0.body = Data() }
            return continuation.resume(returning: answer)
        }
        let failure = cancelled ? CancellationError() : Self.translated(error, after: state.withLock { $0.response })
        producer?.finish(throwing: failure)
        continuation?.resume(throwing: failure)
    }

    /// The answer that `error` ended with, when it ended the upload and not the answer.
    private static func answer(stoppedBy error: any Error, in state: State) -> (MessageBody, HTTPURLResponse)? {
        guard (error as? HTTPClientError) == .requestStreamCancelled, state.producer == nil,
              let response = state.response, response.statusCode >= 300 else { return nil }
        let isRedirect = (300..<400).contains(response.statusCode) && response.value(forHTTPHeaderField: "Location") != nil
        let declared = response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init)
        guard isRedirect || declared == state.body.count else { return nil }
        return (.data(state.body), response)
    }

    /// AsyncHTTPClient's and NIO's errors as the `URLError`s EndpointKit's callers and
    /// `RetryPolicy` know, the original kept as the underlying error; the detail names it, and
    /// the answer's status when its head had arrived (`response`).
    static func translated(_ error: any Error, after response: HTTPURLResponse? = nil) -> any Error {
        if error is TransportRefusal || error is CancellationError || error is URLError { return error }
        let code: URLError.Code
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: code = .timedOut
            case .remoteConnectionClosed, .bodyLengthMismatch: code = .networkConnectionLost
            case .cancelled: return CancellationError()
            case .invalidURL, .emptyHost, .emptyScheme: code = .badURL
            default: code = .cannotParseResponse
            }
        } else if let parser = error as? HTTPParserError {
            // The connection closed before the body's declared end: a body cut off.
            code = parser == .invalidEOFState ? .networkConnectionLost : .cannotParseResponse
        } else if error is NIOConnectionError || error is ChannelError || error is IOError {
            code = .cannotConnectToHost
        } else {
            code = .unknown
        }
        let got = response.map { "after the head of a \($0.statusCode) answer" } ?? "before an answer's head"
        let detail = "AsyncHTTPClient stopped with \(error) \(got)"
        return URLError(code, userInfo: [NSUnderlyingErrorKey: error, NSLocalizedDescriptionKey: detail, URLError.detailKey: detail])
    }
}

/// A value behind a lock, for the delegate's state.
final class Locked<Value>: @unchecked Sendable {
    // `lock` guards `value`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif
