import Foundation

/// Runs a transfer while its progress reaches a closure on the caller's actor.
///
/// Progress is measured where bytes move (URLSession's delegate queue), but it is read by app code
/// on the main actor, updating views. So the transfer runs as a child task that hands each report
/// to a stream, and the calling task, still on the caller's actor, calls `report` with them in
/// order: the closure needs no `@Sendable` and touches main-actor state directly. The stream keeps
/// only the newest report: a busy main actor skips to the latest count instead of queueing old ones.
enum ProgressRelay {
    static func run<Result: Sendable>(
        isolation: isolated (any Actor)?,
        report: ((TransferProgress) -> Void)?,
        _ operation: @escaping @Sendable (ProgressThrottle?) async throws -> Result
    ) async throws -> Result {
        guard let report else { return try await operation(nil) }
        let (updates, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
        let throttle = ProgressThrottle { continuation.yield($0) }
        async let result: Result = {
            defer { continuation.finish() }
            return try await operation(throttle)
        }()
        for await update in updates {
            report(update)
        }
        return try await result
    }
}
