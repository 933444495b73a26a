import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport's refusal to go on with an exchange for the caller's safety; the endpoint turns it
/// into an ``EndpointError`` of the matching kind.
enum TransportRefusal: Error {
    /// The server redirected to `location`, which is not followed (`reason` says why).
    case redirect(location: String, reason: String, response: HTTPURLResponse)
    /// The response body grew past `limit` bytes (after decompression).
    case tooLarge(limit: Int, response: HTTPURLResponse?)
}
