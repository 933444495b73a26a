import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a prepared request through the server's middlewares and transport, with the timeout
/// applied to each attempt.
enum Exchanging {
    static func send<E: Endpoint>(
        _ prepared: PreparedRequest, for endpoint: E.Type, on server: Server
    ) async throws -> (Data, HTTPURLResponse) {
        let transport = server.transport
        let bodyFile = prepared.bodyFile  // kept alive until every attempt is done
        let timeout = E.timeout ?? server.timeout
        if server.middlewares.isEmpty && timeout == nil {  // the common case, without closures
            if let bodyFile {
                return try await transport.upload(prepared.request, fromFile: bodyFile.url)
            }
            return try await transport.send(prepared.request)
        }
        let attempt: Middleware.Next = { request in
            try await withTimeout(timeout) {
                if let bodyFile {
                    try await transport.upload(request, fromFile: bodyFile.url)
                } else {
                    try await transport.send(request)
                }
            }
        }
        guard !server.middlewares.isEmpty else {
            return try await attempt(prepared.request)
        }
        let context = MiddlewareContext(
            endpointName: String(describing: E.self),
            method: prepared.restful.method,
            pathTemplate: prepared.restful.path,
            version: prepared.restful.version,
            origin: server.origin,
            requiresAuthorization: E.requiresAuthorization,
            isRetryable: prepared.restful.method.isIdempotent || E.isSafeToRetry)
        var next = attempt
        for middleware in server.middlewares.reversed() {
            let inner = next
            next = { request in try await middleware.intercept(request, context: context, next: inner) }
        }
        return try await next(prepared.request)
    }

    /// Runs `operation`, failing with `URLError(.timedOut)` after `seconds` (and cancelling it).
    static func withTimeout<Result: Sendable>(
        _ seconds: TimeInterval?, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        guard let seconds, seconds > 0 else { return try await operation() }
        return try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                throw URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "no answer within \(seconds) s"])
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
