import Foundation

/// An OAuth-style pair: a short-lived access token, the long-lived refresh token that renews it,
/// and when the access token expires, if known.
///
/// ```swift
/// let tokens = Tokens(accessToken: "a1", refreshToken: "r1", expiresAt: Date().addingTimeInterval(3600))
/// ```
public struct Tokens: Codable, Hashable, Sendable {
    /// Sent as `Authorization: Bearer <accessToken>`.
    public var accessToken: String
    /// Exchanged for new tokens when the access token expires; `nil` when there is none.
    public var refreshToken: String?
    /// When the access token stops working; `nil` when unknown (a 401 then tells).
    public var expiresAt: Date?

    /// Creates tokens.
    ///
    /// ```swift
    /// let tokens = Tokens(accessToken: reply.accessToken, refreshToken: reply.refreshToken,
    ///                     expiresAt: Date().addingTimeInterval(reply.expiresIn))
    /// ```
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

/// Where ``RefreshTokenAuthorization`` keeps the tokens. EndpointKit ships
/// ``InMemoryTokenStore``; conform your own type to persist them, e.g. in the Keychain.
///
/// ```swift
/// actor KeychainTokenStore: TokenStore {
///     func tokens() async throws -> Tokens? { try keychain.read("tokens").map { try JSONDecoder().decode(Tokens.self, from: $0) } }
///     func update(_ tokens: Tokens) async throws { try keychain.write("tokens", JSONEncoder().encode(tokens)) }
///     func clear() async throws { try keychain.delete("tokens") }
/// }
/// ```
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when signed out.
    func tokens() async throws -> Tokens?
    /// Replaces the stored tokens.
    func update(_ tokens: Tokens) async throws
    /// Removes the stored tokens.
    func clear() async throws
}

/// Tokens kept in memory only: they are gone when the app quits.
///
/// ```swift
/// let store = InMemoryTokenStore(Tokens(accessToken: "a1", refreshToken: "r1"))
/// ```
public actor InMemoryTokenStore: TokenStore {
    private var stored: Tokens?

    /// A store holding `tokens`, or empty.
    public init(_ tokens: Tokens? = nil) {
        stored = tokens
    }

    /// The stored tokens, or `nil`.
    public func tokens() -> Tokens? { stored }

    /// Replaces the stored tokens.
    public func update(_ tokens: Tokens) { stored = tokens }

    /// Removes the stored tokens.
    public func clear() { stored = nil }
}
