import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends `Authorization: Basic <base64(username:password)>` (RFC 7617, UTF-8) with every call
/// that requires authorization, to the server's origin only.
///
/// Sending it up front avoids URLSession's challenge round trip, which hangs on Linux.
///
/// ```swift
/// server.middlewares = [HTTPBasicAuthorization(username: "ana", password: "pässword")]
/// ```
public struct HTTPBasicAuthorization: EndpointMiddleware {
    private let value: String

    /// Credentials for every authorized call. The username may not contain a colon.
    ///
    /// ```swift
    /// let authorization = HTTPBasicAuthorization(username: "ana", password: "secret")
    /// ```
    public init(username: String, password: String) {
        value = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// Adds the header when the call requires authorization and goes to the server's origin.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        guard Credentials.apply(to: request, context: context) else { return try await next(request, body) }
        return try await next(Credentials.setting(value, in: request), body)
    }
}
