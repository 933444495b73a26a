import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends `Authorization: Bearer <token>` with every call that requires authorization, to the
/// server's origin only.
///
/// The token is a constant or comes from an async provider, asked before each request (return
/// `nil` to send none). For access tokens that expire, use ``RefreshTokenAuthorization``.
///
/// ```swift
/// server.middlewares = [HTTPBearerAuthorization(token: "s3cr3t")]
/// server.middlewares = [HTTPBearerAuthorization { try await keychain.accessToken() }]
/// ```
///
/// A request that already has an `Authorization` header keeps it.
public struct HTTPBearerAuthorization: EndpointMiddleware {
    private let token: @Sendable () async throws -> String?

    /// Sends the same token every time.
    ///
    /// ```swift
    /// let authorization = HTTPBearerAuthorization(token: "s3cr3t")
    /// ```
    public init(token: String) {
        self.token = { token }
    }

    /// Asks `provider` for the token before each request; `nil` sends none.
    ///
    /// ```swift
    /// let authorization = HTTPBearerAuthorization { await session.accessToken }
    /// ```
    public init(provider: @escaping @Sendable () async throws -> String?) {
        token = provider
    }

    /// Adds the header when the call requires authorization and goes to the server's origin.
    ///
    /// - Throws: ``EndpointError/Kind/invalidRequest`` when the token holds CR, LF or another
    ///   control character: Foundation would drop such a header silently and send the request
    ///   unauthenticated.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        guard Credentials.apply(to: request, context: context), let token = try await token() else {
            return try await next(request, body)
        }
        return try await next(Credentials.setting("Bearer \(token)", in: request), body)
    }
}

/// Shared rules of the authorization middlewares.
enum Credentials {
    /// Whether to authorize `request`: the call requires it, the URL has the server's origin and no
    /// `Authorization` header is set yet.
    static func apply(to request: URLRequest, context: MiddlewareContext) -> Bool {
        context.requiresAuthorization && context.isSameOrigin(request.url)
            && request.value(forHTTPHeaderField: "Authorization") == nil
    }

    /// `request` with the header `name: value`, validated first: `URLRequest.setValue` on Linux
    /// silently drops a value with CR, LF or NUL (and keeps a bad name), which would send the call
    /// without its credential or inject a header line.
    static func setting(_ value: String, forHeader name: String = "Authorization", in request: URLRequest) throws(EndpointError) -> URLRequest {
        if let problem = HeaderRules.problem(name: name, value: value) {
            throw EndpointError(
                kind: .invalidRequest, route: EndpointError.route(of: request),
                reason: "the credential cannot be sent: \(problem)")  // the problem names the header, never its value
        }
        var authorized = request
        authorized.setValue(value, forHTTPHeaderField: name)
        return authorized
    }
}
