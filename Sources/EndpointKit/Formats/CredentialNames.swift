import Foundation

/// The header and query parameter names that carry credentials in one call: those that are
/// always secret (`Authorization`, `Proxy-Authorization`, `Cookie`) and those that authorization
/// middlewares registered with ``NextStep/withCredential(header:)``.
///
/// A transport leaves them out of a redirect to another origin; a logger redacts them.
///
/// ```swift
/// if context.credentials.containsHeader("X-Api-Key") { value = "<redacted>" }
/// ```
public struct CredentialNames: Sendable, Equatable {
    /// Headers that always carry credentials, lowercased.
    public static let alwaysSecretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// Header names that authorization middlewares registered, lowercased.
    public var headers: Set<String>
    /// Query parameter names that authorization middlewares registered, as written.
    public var queryParameters: Set<String>

    /// Names registered for a call; tests of transports and loggers make their own.
    ///
    /// ```swift
    /// let names = CredentialNames(headers: ["x-api-key"], queryParameters: ["sig"])
    /// ```
    public init(headers: Set<String> = [], queryParameters: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = queryParameters
    }

    /// Whether the header `name` (in any case) carries a credential: one of
    /// ``alwaysSecretHeaders`` or a registered one.
    ///
    /// ```swift
    /// #expect(CredentialNames().containsHeader("Authorization"))
    /// ```
    public func containsHeader(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return Self.alwaysSecretHeaders.contains(lowercased) || headers.contains(lowercased)
    }

    /// Whether the query parameter `name` carries a credential.
    ///
    /// ```swift
    /// #expect(CredentialNames(queryParameters: ["sig"]).containsQueryParameter("sig"))
    /// ```
    public func containsQueryParameter(_ name: String) -> Bool {
        queryParameters.contains(name)
    }
}
