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
        _ prepared: PreparedRequest, for endpoint: E, on server: APIServer, streaming: Bool = false,
        options: CallOptions = CallOptions(), delivery: Locked<(any Sendable)?>? = nil
    ) async throws -> (MessageBody, HTTPURLResponse) {
        let transport = server.transport
        let facts = AttemptFacts(
            timeout: try validTimeout(E.timeout ?? server.timeout, prepared: prepared),
            uploadProgress: options.uploadProgress, observeAttempt: options.observeAttempt)
        let limit = E.responseLimit(on: server)
        let idleTimeout = streaming ? E.streaming.idleTimeout : nil
        let middlewares = server.middlewares
        let preparedFile = prepared.bodyFile  // kept alive until every attempt is done
        typealias Step = @Sendable (URLRequest, MessageBody?, AttemptFacts) async throws -> (MessageBody, HTTPURLResponse)
        let send: Step = { request, body, facts in
            // Without middlewares, the prepared request goes as it is: RequestBuilder validated it.
            let (request, body) = middlewares.isEmpty ? (request, body) : try checked(request, body: body)
            for hook in facts.hooks { try await hook.beforeSending(request) }
            facts.observeAttempt?(request, facts.credentials)
            let progress = facts.uploadProgress.map(UploadReport.init)
            var attempt = TransportContext(
                input: endpoint, timeout: facts.timeout, maximumResponseSize: limit, idleTimeout: idleTimeout,
                streamsResponse: streaming, credentials: facts.credentials, uploadProgress: progress?.report)
            attempt.delivery = delivery
            let context = attempt
            delivery?.value = nil  // what an earlier attempt's transport delivered is not this one's
            defer { withExtendedLifetime(preparedFile) {} }
            let answer = try await withDeadline(context.deadline, timeout: context.timeRemaining) {
                let (answer, response) = try await transport.send(request, body: body, context: context)
                progress?.finish(body)
                for hook in facts.hooks { hook.answered(response) }
                switch answer {
                case .stream(let stream) where !streaming || !(200..<300).contains(response.statusCode):
                    // The whole body, for a call that does not stream or an answer that is not 2xx.
                    return (MessageBody.data(try await stream.collect(upTo: limit)), response)
                case .data(let bytes) where bytes.count > limit:
                    throw TransportRefusal.tooLarge(limit: limit, response: response)  // a transport that does not count
                default:
                    return (answer, response)
                }
            }
            // A caller who cancelled gets CancellationError, even from a transport that went on
            // and answered (corelibs' URLSession.data(for:) at times): not an answer nobody waits for.
            if Task.isCancelled { throw CancellationError() }
            return answer
        }
        guard !middlewares.isEmpty else {
            return try await send(prepared.request, prepared.body, facts)
        }
        let context = MiddlewareContext(
            operationID: EndpointError.operationID(of: E.self),
            method: prepared.restful.method,
            pathTemplate: prepared.restful.path,
            version: prepared.restful.version,
            origin: server.origin,
            requiresAuthorization: E.requiresAuthorization,
            isRetryable: prepared.restful.method.isIdempotent || E.isSafeToRetry,
            streamsResponse: streaming,
            options: E.options)
        var next = send
        for middleware in middlewares.reversed() {
            let inner = next
            // Each step reads the facts it was handed; its `next` hands on what the copy it calls carries.
            next = { request, body, facts in
                var step = context
                step.facts = facts
                return try await middleware.intercept(request, body: body, context: step, next: NextStep(facts: facts, send: inner))
            }
        }
        return try await next(prepared.request, prepared.body, facts)
    }

    /// Reports the whole body as sent once the answer arrives, for a transport that reported no
    /// upload progress of its own.
    private final class UploadReport: Sendable {
        private let target: @Sendable (TransferProgress) -> Void
        private let reported = Locked(false)

        init(_ target: @escaping @Sendable (TransferProgress) -> Void) {
            self.target = target
        }

        var report: @Sendable (TransferProgress) -> Void {
            { [self] progress in
                reported.withLock { $0 = true }
                target(progress)
            }
        }

        func finish(_ body: MessageBody?) {
            guard !reported.withLock({ $0 }) else { return }
            let size = body?.count ?? 0
            target(TransferProgress(completed: size, expected: size))
        }
    }

    /// The request and body the middlewares passed on, checked: headers must follow the same rules
    /// as an endpoint's own. The body travels beside the request; a middleware that set `httpBody`
    /// instead sends that body, and one that set it to something else than the body it passed on
    /// is refused, as the middlewares further in saw the other.
    static func checked(_ request: URLRequest, body: MessageBody?) throws -> (URLRequest, MessageBody?) {
        try validate(request)
        guard let bytes = request.httpBody else { return (request, body) }
        var request = request
        request.httpBody = nil
        switch body {
        case nil:
            return (request, .data(bytes))
        case .data(let passed) where passed == bytes:
            return (request, body)
        default:
            throw EndpointError(
                kind: .invalidRequest, route: EndpointError.route(of: request),
                reason: "a middleware set the request's httpBody to another body than the one it passed to next; pass the body as next(request, .data(bytes)), so that the middlewares further in see it too",
                request: request)
        }
    }

    /// The request as middlewares left it must pass the same header rules as the endpoint's own
    /// headers: a middleware cannot inject a header line either.
    static func validate(_ request: URLRequest) throws(EndpointError) {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let problem = HeaderRules.problem(name: name, value: value) {
                throw EndpointError(
                    kind: .invalidRequest, route: EndpointError.route(of: request),
                    reason: "a middleware set a header that cannot be sent: \(problem)", request: request)
            }
        }
    }

    /// The timeout to apply, or an error for a nonsensical one (negative or NaN).
    private static func validTimeout(_ seconds: TimeInterval?, prepared: PreparedRequest) throws(EndpointError) -> TimeInterval? {
        guard let seconds else { return nil }
        if let problem = Seconds.problem(seconds, named: "the timeout") {
            throw EndpointError(
                kind: .invalidRequest, route: RequestBuilder.label(prepared.restful, prefix: prepared.prefix),
                reason: problem + " (APIServer.timeout or the endpoint's static timeout)")
        }
        return seconds
    }

    /// Runs `operation`, failing with `URLError(.timedOut)` at `deadline` (and cancelling it);
    /// `timeout` is the time it had, for the message.
    ///
    /// One child task and an entry in the shared ``Deadlines`` table: cheaper than a task group
    /// with a sleeping child or a Dispatch work item per call, and not held up, as a timer on the
    /// cooperative pool would be, by work that keeps its threads busy. An attempt that finishes
    /// before its task is handed back (an answer from memory, see ``startAttempt(_:)``) sets no
    /// deadline at all.
    static func withDeadline<Result: Sendable>(
        _ deadline: DispatchTime?, timeout: TimeInterval?, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        guard let deadline else { return try await operation() }
        // The attempt runs in a task of its own, which the caller's cancellation reaches only once
        // the handler below is in place: a call cancelled before it starts sends nothing.
        if Task.isCancelled { throw CancellationError() }
        // The table keeps the entry until the deadline or its removal: the entry reaches the task
        // only through this box, emptied when the attempt ends, so a finished answer (which may be
        // megabytes) is not kept alive for the rest of the timeout.
        let box = PendingAttempt<Result>()
        let attempt = startAttempt {
            defer { box.state.withLock { $0 = (task: nil, finished: true) } }
            return try await operation()
        }
        let running = box.state.withLock { pending -> Bool in
            if !pending.finished { pending.task = attempt }
            return !pending.finished
        }
        if running {
            let now = DispatchTime.now().uptimeNanoseconds
            let wait = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
            Deadlines.shared.add(box, after: wait) { [weak box] in box?.state.withLock { $0.task }?.cancel() }
        }
        defer {
            if running { Deadlines.shared.remove(box) }
            box.state.withLock { $0.task = nil }
        }
        do {
            return try await withTaskCancellationHandler { try await attempt.value } onCancel: { attempt.cancel() }
        } catch where attempt.isCancelled && !Task.isCancelled {
            throw URLError.timeout(after: timeout ?? 0)  // cancelled, but not by the caller: by the deadline
        }
    }

    /// The attempt a timer may cancel, until it finishes.
    private final class PendingAttempt<Result: Sendable>: Sendable {
        let state = Locked<(task: Task<Result, any Error>?, finished: Bool)>((task: nil, finished: false))
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
}
