import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A decoded payload together with the response it came in: status code and headers such as rate
/// limits, `ETag` or `Link`.
///
/// Ask for it with ``Endpoint/callWithMetadata()`` when the headers matter; `response` and `call()`
/// stay the one-line way to get the payload alone.
///
/// ```swift
/// let page = try await ListBranches(owner: "apple", repo: "swift", perPage: 30).callWithMetadata()
/// let branches = page.payload
/// let next = page.value(forHeader: "Link")
/// let remaining = page.value(forHeader: "X-RateLimit-Remaining").flatMap(Int.init)
/// ```
public struct EndpointResponse<Payload: Sendable>: Sendable {
    /// The decoded payload.
    public let payload: Payload
    /// The HTTP response: status, headers and final URL (after redirects).
    public let httpResponse: HTTPURLResponse
    /// The request as EndpointKit sent it.
    public let request: URLRequest

    /// Creates a response; EndpointKit creates these for you.
    ///
    /// ```swift
    /// let response = EndpointResponse(payload: balance, httpResponse: httpResponse, request: request)
    /// ```
    public init(payload: Payload, httpResponse: HTTPURLResponse, request: URLRequest) {
        self.payload = payload
        self.httpResponse = httpResponse
        self.request = request
    }

    /// The HTTP status code, e.g. `200`.
    public var statusCode: Int { httpResponse.statusCode }

    /// The value of a response header, matching its name in any case; `nil` when absent.
    ///
    /// ```swift
    /// let etag = response.value(forHeader: "etag")
    /// ```
    public func value(forHeader name: String) -> String? {
        httpResponse.value(forHTTPHeaderField: name)
    }

    /// All response headers, by the names the server used.
    public var headers: [String: String] {
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in httpResponse.allHeaderFields {
            headers[name] = value
        }
        return headers
    }
}
