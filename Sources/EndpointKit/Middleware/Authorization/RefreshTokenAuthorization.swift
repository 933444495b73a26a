import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Bearer authorization with a short-lived access token renewed by a refresh token.
///
/// - Before a request, if the stored access token is known to have expired (``Tokens/expiresAt``
///   within `refreshMargin`), it is refreshed first.
/// - If the server answers 401 anyway, the token is refreshed and the request is sent once more,
///   body included. A second 401 is returned as it is: there is no loop.
/// - **Single flight:** however many calls need a refresh at once, `refresh` runs once and all of
///   them continue with its result. A failed refresh is thrown to every waiting call (as an
///   ``EndpointError`` of kind ``EndpointError/Kind/authorizationFailed``), clears the store and
///   calls `onSignOut` once.
/// - The token goes only to the server's origin, and only to endpoints that require
///   authorization; declare `static var requiresAuthorization: Bool { false }` on the sign-in and
///   refresh endpoints.
///
/// ```swift
/// let auth = RefreshTokenAuthorization(store: InMemoryTokenStore()) { [api] tokens in
///     let reply = try await RefreshToken(refreshToken: tokens.refreshToken ?? "").call(on: api)
///     return Tokens(accessToken: reply.accessToken, refreshToken: reply.refreshToken,
///                   expiresAt: Date().addingTimeInterval(reply.expiresIn))
/// } onSignOut: { error in
///     await MainActor.run { appState.showSignIn() }
/// }
/// api.middlewares = [auth]
/// try await auth.signIn(Tokens(accessToken: a, refreshToken: r))
/// ```
public final class RefreshTokenAuthorization: EndpointMiddleware {
    private let session: TokenSession

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - store: Where the tokens live. Defaults to an empty ``InMemoryTokenStore``.
    ///   - refreshMargin: Refresh this many seconds before a known expiry. Defaults to 30.
    ///   - refresh: Exchanges the current tokens for new ones, usually by calling the API's refresh
    ///     endpoint (which must not require authorization). Throw when that fails.
    ///   - onSignOut: Called once when a refresh fails and the session is signed out.
    public init(
        store: any TokenStore = InMemoryTokenStore(),
        refreshMargin: TimeInterval = 30,
        refresh: @escaping @Sendable (Tokens) async throws -> Tokens,
        onSignOut: @escaping @Sendable (EndpointError) async -> Void = { _ in }
    ) {
        session = TokenSession(store: store, refreshMargin: refreshMargin, refresh: refresh) { error in
            await onSignOut(error as? EndpointError ?? EndpointError(
                kind: .authorizationFailed, route: "token refresh", reason: "\(error)", underlyingError: error))
        }
    }

    /// Stores `tokens` after a sign-in (or an account switch); a refresh still running for the
    /// previous tokens is disregarded.
    ///
    /// ```swift
    /// try await auth.signIn(Tokens(accessToken: reply.accessToken, refreshToken: reply.refreshToken))
    /// ```
    public func signIn(_ tokens: Tokens) async throws {
        try await session.signIn(tokens)
    }

    /// Clears the store: calls are sent without a token until the next ``signIn(_:)``. Does not
    /// call `onSignOut`, which is for sign-outs the app did not ask for.
    ///
    /// ```swift
    /// try await auth.signOut()
    /// ```
    public func signOut() async throws {
        try await session.signOut()
    }

    /// Forgets what is held in memory (the tokens read from the store, a refresh under way) and
    /// reads the store again on the next call. Use it after changing the store yourself.
    ///
    /// ```swift
    /// try await keychainStore.update(otherAccountTokens)
    /// await auth.reset()
    /// ```
    public func reset() async {
        await session.reset()
    }

    /// Authorizes the request, refreshing the token before it (known expiry) or after a 401.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        guard Credentials.apply(to: request, context: context), !TokenSession.isRefreshing,
              let tokens = try await session.tokensForRequest()
        else { return try await next(request, body) }
        try Task.checkCancellation()
        let answer = try await next(Credentials.setting("Bearer \(tokens.accessToken)", in: request), body)
        guard answer.1.statusCode == 401,
              let fresh = try await session.tokens(replacing: tokens.accessToken),
              fresh.accessToken != tokens.accessToken
        else { return answer }
        try Task.checkCancellation()
        return try await next(Credentials.setting("Bearer \(fresh.accessToken)", in: request), body)
    }
}
