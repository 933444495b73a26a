import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The head of a stub's answer: an ordinary `HTTPURLResponse`. A typed stub's payload goes to the
/// call's decoding step through `TransportContext.deliver(_:)`, never inside the response.
enum StubbedResponse {
    /// A response with `status` and `headers`, or the error that says why Foundation made none.
    static func make(url: URL, status: Int, headers: [String: String]) throws(EndpointError) -> HTTPURLResponse {
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw EndpointError(
                kind: .notStubbed, route: url.absoluteString,
                reason: "Foundation could not make a response with status \(status) and headers \(headers.keys.sorted())")
        }
        return response
    }
}
