import Foundation

/// The state behind ``RefreshTokenAuthorization``: the current tokens and the one refresh in
/// flight, so that any number of callers share a single refresh.
///
/// Every decision to start a refresh is taken without suspending between the check and the
/// start, so concurrent callers cannot both start one.
actor TokenSession {
    typealias Refresh = @Sendable (Tokens) async throws -> Tokens
    typealias SignOutHook = @Sendable (any Error) async -> Void

    /// Set while `refresh` runs, so that the refresh call itself is never held up waiting for the
    /// refresh (which would deadlock) even if its endpoint forgot to opt out of authorization.
    @TaskLocal static var isRefreshing = false

    private let store: any TokenStore
    private let refreshMargin: TimeInterval
    private let refresh: Refresh
    private let onSignOut: SignOutHook

    /// The store's tokens once read (`loaded`), kept in step with every change made here.
    private var cached: Tokens?
    private var loaded = false
    private var inFlight: (id: Int, task: Task<Tokens, any Error>)?
    /// The access token whose refresh failed, and the error: a call still holding that token
    /// gets the same error rather than a bare 401.
    private var failedRefresh: (accessToken: String, error: EndpointError)?
    /// Bumped by sign-in, sign-out and reset, so that an older refresh cannot store its result.
    private var generation = 0
    private var nextID = 0

    init(store: any TokenStore, refreshMargin: TimeInterval, refresh: @escaping Refresh, onSignOut: @escaping SignOutHook) {
        self.store = store
        self.refreshMargin = refreshMargin
        self.refresh = refresh
        self.onSignOut = onSignOut
    }

    /// The tokens to send now, refreshed first when the access token is known to have expired
    /// (or to expire within the margin).
    func tokensForRequest(now: Date = Date()) async throws -> Tokens? {
        while true {
            if let inFlight { return try await Self.value(of: inFlight.task) }
            let tokens = try await current()
            if inFlight != nil { continue }  // a refresh started while the store was read
            guard let tokens, tokens.refreshToken != nil, let expiry = tokens.expiresAt,
                  expiry.timeIntervalSince(now) <= refreshMargin
            else { return tokens }
            return try await startRefresh(from: tokens)
        }
    }

    /// New tokens after the server refused `rejected`: a refresh, unless one is under way (then
    /// its result) or already done (then the current tokens). `nil` when there is nothing to
    /// refresh with.
    func tokens(replacing rejected: String) async throws -> Tokens? {
        while true {
            if let inFlight { return try await Self.value(of: inFlight.task) }
            let tokens = try await current()
            if inFlight != nil { continue }
            if tokens == nil, let failedRefresh, failedRefresh.accessToken == rejected {
                throw failedRefresh.error
            }
            guard let tokens, tokens.refreshToken != nil else { return nil }
            if tokens.accessToken != rejected { return tokens }  // someone else refreshed already
            return try await startRefresh(from: tokens)
        }
    }

    func signIn(_ tokens: Tokens) async throws {
        startOver(cached: tokens, loaded: true)
        try await store.update(tokens)
    }

    func signOut() async throws {
        startOver(cached: nil, loaded: true)
        try await store.clear()
    }

    func reset() {
        startOver(cached: nil, loaded: false)
    }

    // MARK: - Private

    /// A new generation: no refresh in flight or failed, and the tokens as given.
    private func startOver(cached tokens: Tokens?, loaded: Bool) {
        generation += 1
        failedRefresh = nil
        inFlight = nil
        cached = tokens
        self.loaded = loaded
    }

    private func current() async throws -> Tokens? {
        if loaded { return cached }
        let generationBefore = generation
        let tokens = try await store.tokens()
        if !loaded && generation == generationBefore {
            cached = tokens
            loaded = true
        }
        return loaded ? cached : tokens
    }

    /// Starts the one refresh (the caller has just checked that none is in flight) and waits for it.
    private func startRefresh(from tokens: Tokens) async throws -> Tokens {
        nextID += 1
        let id = nextID
        let generationAtStart = generation
        let task = Task { try await self.performRefresh(from: tokens, generation: generationAtStart) }
        inFlight = (id, task)
        defer { if inFlight?.id == id { inFlight = nil } }
        return try await Self.value(of: task)
    }

    private func performRefresh(from tokens: Tokens, generation refreshGeneration: Int) async throws -> Tokens {
        let fresh: Tokens
        do {
            fresh = try await Self.$isRefreshing.withValue(true) { try await refresh(tokens) }
        } catch {
            let failure = EndpointError(
                kind: .authorizationFailed, route: "token refresh",
                reason: "the access token could not be refreshed, so the session was signed out: \((error as? EndpointError)?.description ?? "\(error)")",
                underlyingError: error)
            if generation == refreshGeneration {  // not superseded by a sign-in meanwhile
                failedRefresh = (tokens.accessToken, failure)
                cached = nil
                loaded = true
                try? await store.clear()
                await onSignOut(failure)
            }
            throw failure
        }
        if generation == refreshGeneration {
            cached = fresh
            loaded = true
            try await store.update(fresh)
        }
        return fresh
    }

    /// The refresh's result, or `CancellationError` as soon as the waiting call is cancelled: the
    /// refresh goes on for the other callers, but this one stops waiting for it.
    private static func value(of task: Task<Tokens, any Error>) async throws -> Tokens {
        let waiter = Locked<CheckedContinuation<Tokens, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                if Task.isCancelled {
                    waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
                    return
                }
                Task {
                    let result = await task.result
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
