import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport's refusal to go on with an exchange, for the caller's safety. EndpointKit turns it
/// into an ``EndpointError`` of the matching kind (``EndpointError/Kind/redirectRefused``,
/// ``EndpointError/Kind/responseTooLarge``, ``EndpointError/Kind/invalidRequest``) that names the
/// call, which a ``RetryPolicy`` does not retry.
///
/// A transport of your own throws these where ``URLSessionTransport`` does:
///
/// ```swift
/// if received > limit { throw TransportRefusal.tooLarge(limit: limit, response: response) }
/// ```
public enum TransportRefusal: Error, Sendable {
    /// The server redirected to `location`, which is not followed (`reason` says why, e.g. "it
    /// would downgrade https to http"). Nothing was sent there.
    case redirect(location: String, reason: String, response: HTTPURLResponse)
    /// The response body grew past `limit` bytes (after decompression).
    case tooLarge(limit: Int, response: HTTPURLResponse?)
    /// A one-pass ``ByteStream`` was read a second time: a request body stream a middleware made,
    /// sent again by a retry, say. Its second reader gets this error instead of an empty body.
    case streamAlreadyRead
}
