import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends an API key as a header or a query parameter with every call that requires
/// authorization, to the server's origin only.
///
/// ```swift
/// server.middlewares = [APIKeyAuthorization(header: "X-API-Key", value: key)]
/// server.middlewares = [APIKeyAuthorization(queryParameter: "api_key", value: key)]
/// ```
///
/// ``RequestLogger`` redacts the key in either place.
public struct APIKeyAuthorization: EndpointMiddleware {
    package enum Placement: Sendable {
        case header(String)
        case query(String)
    }

    package let placement: Placement
    private let value: String

    /// Sends the key as the header `name`.
    ///
    /// ```swift
    /// let authorization = APIKeyAuthorization(header: "X-API-Key", value: "k-123")
    /// ```
    public init(header name: String, value: String) {
        placement = .header(name)
        self.value = value
    }

    /// Sends the key as the query parameter `name`, percent-encoded.
    ///
    /// ```swift
    /// let authorization = APIKeyAuthorization(queryParameter: "api_key", value: "k-123")
    /// ```
    public init(queryParameter name: String, value: String) {
        placement = .query(name)
        self.value = value
    }

    /// Adds the key when the call requires authorization and goes to the server's origin, and
    /// registers its name so that ``RequestLogger`` redacts it and redirects to another origin
    /// leave it behind.
    ///
    /// - Throws: ``EndpointError/Kind/invalidRequest`` when the header name is not an HTTP token
    ///   or the key holds CR, LF or another control character, or when the URL with the key
    ///   cannot be built. The call is never sent without its key.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        guard context.requiresAuthorization, context.isSameOrigin(request.url), let url = request.url else {
            return try await next(request, body)
        }
        switch placement {
        case .header(let name):
            guard request.value(forHTTPHeaderField: name) == nil else { return try await next(request, body) }
            let authorized = try Credentials.setting(value, forHeader: name, in: request)
            return try await next.withCredential(header: name)(authorized, body)
        case .query(let name):
            let pair = PercentEncoding.encode(name) + "=" + PercentEncoding.encode(value)
            var text = url.absoluteString
            let fragment = text.firstIndex(of: "#").map { String(text[$0...]) } ?? ""
            text.removeLast(fragment.count)
            text += (url.query == nil ? "?" : "&") + pair + fragment
            guard let keyed = URL(string: text) else {
                throw EndpointError(
                    kind: .invalidRequest, route: EndpointError.route(of: request),
                    reason: "the URL with the API key added cannot be built")
            }
            var authorized = request
            authorized.url = keyed
            return try await next.withCredential(queryParameter: name)(authorized, body)
        }
    }
}
