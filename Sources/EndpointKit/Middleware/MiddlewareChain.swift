import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a prepared request through the server's middlewares and transport, with the timeout
/// applied to each attempt and the response size limit in force.
enum MiddlewareChain {
    /// Sends `prepared` and returns the final answer. A `streaming` call's 2xx answer is returned
    /// at its head, its body a live ``MessageBody/stream(_:)``; another status, and every answer
    /// of a call that does not stream, comes with its whole body as ``MessageBody/data(_:)``.
    static func send<E: Endpoint>(
        _ prepared: PreparedRequest, for endpoint: E, on server: Server, streaming: Bool = false
    ) async throws -> (MessageBody, HTTPURLResponse) {
        let transport = server.transport
        let timeout = try validTimeout(E.timeout ?? server.timeout, prepared: prepared)
        var scope = CallScope.current
        scope.maximumResponseSize = E.responseLimit(on: server)
        scope.timeout = timeout
        if streaming { scope.idleTimeout = E.streaming.idleTimeout }
        let timesItself = transport is URLSessionTransport
        let middlewares = server.middlewares
        let preparedFile = prepared.bodyFile  // kept alive until every attempt is done
        let preparedBytes = middlewares.isEmpty ? nil : prepared.request.httpBody
        let send: Middleware.Next = { request, body in
            // Without middlewares, the prepared request goes as it is: RequestBuilder validated it,
            // and its body is the one prepared.
            let outgoing = middlewares.isEmpty
                ? Outgoing(request: request, bodyFile: preparedFile?.url, keeper: nil)
                : try await Outgoing.checked(request, body: body, preparedBytes: preparedBytes)
            let hooks = CallScope.current.attemptHooks
            for hook in hooks { try await hook.beforeSending(outgoing.request) }
            if let observe = CallScope.current.observeAttempt { observe(outgoing.request, CallScope.current) }
            let request = outgoing.request
            let bodyFile = outgoing.bodyFile
            // A middleware may have shortened the timeout (a Throttle, for the time queued).
            let timeout = middlewares.isEmpty ? timeout : CallScope.current.timeout
            defer { withExtendedLifetime(outgoing.keeper) {} }  // a spooled body file lives until the attempt ends
            if streaming {
                let open: @Sendable () async throws -> (MessageBody, HTTPURLResponse) = {
                    let (stream, response) = try await transport.stream(request, bodyFile: bodyFile, for: endpoint)
                    reportUploaded(request, bodyFile: bodyFile, timesItself: timesItself)
                    guard (200..<300).contains(response.statusCode) else {
                        return (.data(try await stream.collect(upTo: CallScope.current.maximumResponseSize ?? .max)), response)
                    }
                    return (.stream(stream), response)
                }
                let answer = timesItself ? try await open() : try await withTimeout(timeout, open)
                for hook in hooks { hook.answered(answer.1) }
                return answer
            }
            // The whole answer as `Data` until the end: a plain call stays as cheap as it was.
            let exchange: @Sendable () async throws -> (Data, HTTPURLResponse) = {
                let answer = try await transport.send(request, bodyFile: bodyFile, for: endpoint)
                reportUploaded(request, bodyFile: bodyFile, timesItself: timesItself)
                if let limit = CallScope.current.maximumResponseSize, answer.0.count > limit {
                    throw TransportRefusal.tooLarge(limit: limit, response: answer.1)  // a transport that does not count
                }
                return answer
            }
            // URLSessionTransport times the attempt itself, from the moment its task starts.
            let (data, response) = timesItself ? try await exchange() : try await withTimeout(timeout, exchange)
            for hook in hooks { hook.answered(response) }
            return (.data(data), response)
        }
        return try await CallScope.$current.withValue(scope) {
            guard !middlewares.isEmpty else { return try await send(prepared.request, nil) }
            let context = MiddlewareContext(
                endpointName: EndpointError.operationName(of: E.self),
                method: prepared.restful.method,
                pathTemplate: prepared.restful.path,
                version: prepared.restful.version,
                origin: server.origin,
                requiresAuthorization: E.requiresAuthorization,
                isRetryable: prepared.restful.method.isIdempotent || E.isSafeToRetry,
                streamsResponse: streaming,
                coalescesIdenticalRequests: E.coalescesIdenticalRequests)
            var next = send
            for middleware in middlewares.reversed() {
                let inner = next
                next = { request, body in try await middleware.intercept(request, body: body, context: context, next: inner) }
            }
            return try await next(prepared.request, prepared.body)
        }
    }

    /// Reports the whole body as sent, for a transport that reports no upload progress of its own
    /// (anything but ``URLSessionTransport``).
    private static func reportUploaded(_ request: URLRequest, bodyFile: URL?, timesItself: Bool) {
        guard !timesItself, let report = CallScope.current.uploadProgress else { return }
        let size = Outgoing(request: request, bodyFile: bodyFile, keeper: nil).bodySize
        report(TransferProgress(completed: size, expected: size))
    }

    /// The request as middlewares left it must pass the same header rules as the endpoint's own
    /// headers: a middleware cannot inject a header line either.
    static func validate(_ request: URLRequest) throws(EndpointError) {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let problem = HeaderRules.problem(name: name, value: value) {
                throw EndpointError(
                    kind: .invalidRequest, endpoint: ResponseDecoder.label(for: request),
                    reason: "a middleware set a header that cannot be sent: \(problem)", request: request)
            }
        }
    }

    /// The timeout to apply, or an error for a nonsensical one (negative or NaN).
    private static func validTimeout(_ seconds: TimeInterval?, prepared: PreparedRequest) throws(EndpointError) -> TimeInterval? {
        guard let seconds else { return nil }
        if let problem = Seconds.problem(seconds, named: "the timeout") {
            throw EndpointError(
                kind: .invalidRequest, endpoint: RequestBuilder.label(prepared.restful, prefix: prepared.prefix),
                reason: problem + " (Server.timeout or the endpoint's static timeout)")
        }
        return seconds
    }

    /// Runs `operation`, failing with `URLError(.timedOut)` after `seconds` (and cancelling it).
    ///
    /// One child task and a Dispatch timer: a task group with a sleeping second child cost about
    /// 30,000 instructions a call, and a timer on the cooperative pool can be held up by work that
    /// keeps its threads busy. An attempt that finishes before its task is handed back (an answer
    /// from memory, see ``startAttempt(_:)``) sets no timer at all.
    static func withTimeout<Result: Sendable>(
        _ seconds: TimeInterval?, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        guard let seconds, let nanoseconds = Seconds.nanoseconds(seconds) else { return try await operation() }
        // Dispatch keeps a cancelled work item until its deadline: the item reaches the task only
        // through this box, emptied when the attempt ends, so a finished answer (which may be
        // megabytes) is not kept alive for the rest of the timeout.
        let box = Locked(PendingAttempt<Result>())
        let attempt = startAttempt {
            defer { box.withLock { $0 = PendingAttempt(task: nil, finished: true) } }
            return try await operation()
        }
        let running = box.withLock { pending -> Bool in
            if !pending.finished { pending.task = attempt }
            return !pending.finished
        }
        var timer: DispatchWorkItem?
        if running {
            let item = DispatchWorkItem { box.withLock { $0.task }?.cancel() }
            Exchange.cancellations.asyncAfter(deadline: Seconds.dispatchTime(after: nanoseconds), execute: item)
            timer = item
        }
        defer {
            timer?.cancel()
            box.withLock { $0.task = nil }
        }
        do {
            return try await withTaskCancellationHandler { try await attempt.value } onCancel: { attempt.cancel() }
        } catch where attempt.isCancelled && !Task.isCancelled {
            throw timedOut(after: seconds)  // cancelled, but not by the caller: by the timer
        }
    }

    /// The attempt a timer may cancel, until it finishes.
    private struct PendingAttempt<Result: Sendable>: Sendable {
        var task: Task<Result, any Error>?
        var finished = false
    }

    /// Starts `operation` as a task of its own, so that a timer can cancel it.
    ///
    /// Where the OS has `Task.immediate` (Linux; iOS, macOS, tvOS, watchOS and visionOS 26), the
    /// task runs on the caller's thread until it first waits: an answer from memory (a stub, a
    /// cache) finishes without a hop to another thread and back, which cost about 12,000
    /// instructions a call. Older Apple systems start an ordinary task.
    private static func startAttempt<Result: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Result
    ) -> Task<Result, any Error> {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate { try await operation() }
        }
        return Task { try await operation() }
    }

    /// The error of an attempt that took longer than its timeout.
    static func timedOut(after seconds: TimeInterval, while doing: String? = nil) -> URLError {
        let description = doing.map { "the timeout of \(seconds) s passed while \($0)" } ?? "no answer within \(seconds) s"
        return URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: description, URLError.timeoutDetailKey: description])
    }
}
