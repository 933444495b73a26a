import Foundation

// MARK: - Swapping servers for one task

extension APIServer {
    /// Runs `operation` with every call in the current task and its child tasks sent through
    /// `transport`, whichever server it goes to: ``default``, an endpoint's own
    /// ``Endpoint/server``, or one passed to `call(on:)`.
    ///
    /// Everything else about each server stays: its URLs, coders, headers, middlewares and error
    /// type, so a stub sees the requests the real API would get. Because the transport is the only
    /// part that touches the network, a test or preview wrapped in it cannot reach a production
    /// server through an API it forgot to override.
    ///
    /// ```swift
    /// let stubs = StubTransport()
    /// stubs.on(ListBranches.self) { _ in [Branch(name: "main")] }
    /// let branches = try await APIServer.withTransport(stubs) {
    ///     try await ListBranches(owner: "apple", repo: "swift").response  // bound to GitHub, answered by the stub
    /// }
    /// ```
    ///
    /// The innermost `withTransport` wins. `operation` runs in the caller's isolation.
    @discardableResult
    public static func withTransport<Result>(
        _ transport: any HTTPTransport,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        var scope = taskScope
        scope.transport = transport
        return try await $taskScope.withValue(scope, operation: operation, isolation: isolation)
    }

    /// Runs `operation` with the calls that would go to `original` (a server with the same origin)
    /// sent to `replacement` instead, in the current task and its child tasks.
    ///
    /// Use it to point one API at a staging or preview server while the others stay as they are:
    ///
    /// ```swift
    /// try await APIServer.withReplacement(.githubStaging, for: .github) {
    ///     try await ListBranches(owner: "apple", repo: "swift").response  // to the staging server
    /// }
    /// ```
    ///
    /// Servers match by origin (scheme, host, port and base path), so it also applies to calls
    /// that pass `original` to `call(on:)`. The innermost replacement of an origin wins. A
    /// ``withTransport(_:isolation:operation:)`` around it still applies to the replacement.
    @discardableResult
    public static func withReplacement<Result>(
        _ replacement: APIServer,
        for original: APIServer,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        var scope = taskScope
        scope.replacements.append((original.plan.origin, replacement))
        return try await $taskScope.withValue(scope, operation: operation, isolation: isolation)
    }

    /// This server as the current task sees it: replaced, and with another transport, when
    /// ``withReplacement(_:for:isolation:operation:)`` or ``withTransport(_:isolation:operation:)`` say so.
    package func overridden() -> APIServer {
        let scope = APIServer.taskScope
        if scope.transport == nil && scope.replacements.isEmpty { return self }
        var server = scope.replacements.last { $0.origin == plan.origin }?.server ?? self
        if let transport = scope.transport { server.transport = transport }
        return server
    }

    /// What the current task changed about servers: EndpointKit's one scope, set by
    /// ``withDefault(_:isolation:operation:)``, ``withTransport(_:isolation:operation:)`` and
    /// ``withReplacement(_:for:isolation:operation:)`` for tests and previews.
    struct TaskScope: Sendable {
        var defaultServer: APIServer?
        var transport: (any HTTPTransport)?
        /// Origins (as ``ServerPlan`` spells them) and what replaces them, innermost last.
        var replacements: [(origin: String, server: APIServer)] = []
    }

    @TaskLocal static var taskScope = TaskScope()
}
