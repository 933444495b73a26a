import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response of a typed stub: an ordinary `HTTPURLResponse` to the middlewares, carrying the
/// payload to the decoding step, which hands it over as it is (see `PayloadCarrier`).
///
/// The payload travels with this very object: a middleware that answers with another response
/// (a cache, a retry's later answer) drops it, and its own body is decoded instead.
///
/// Sendable as `HTTPURLResponse` is, and immutable: its one stored property is a `let` of a
/// `Sendable` type.
final class StubbedResponse: HTTPURLResponse, PayloadCarrier, @unchecked Sendable {
    let payload: any Sendable
    var carriedPayload: any Sendable { payload }

    private init?(url: URL, status: Int, headers: [String: String], payload: any Sendable) {
        self.payload = payload
        super.init(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    // Required by NSCoding, which URLResponse adopts; a stubbed response is never archived.
    required init?(coder: NSCoder) {
        nil
    }

    /// A response with `status` and `headers`, carrying `payload` when there is one.
    static func make(url: URL, status: Int, headers: [String: String], payload: (any Sendable)?) throws(EndpointError) -> HTTPURLResponse {
        let response: HTTPURLResponse? = if let payload {
            StubbedResponse(url: url, status: status, headers: headers, payload: payload)
        } else {
            HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        }
        guard let response else {
            throw EndpointError(
                kind: .notStubbed, route: url.absoluteString,
                reason: "Foundation could not make a response with status \(status) and headers \(headers.keys.sorted())")
        }
        return response
    }
}
