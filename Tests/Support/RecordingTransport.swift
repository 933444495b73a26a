import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-memory transport: records every request and answers each with the same canned response.
package final class RecordingTransport: WholeRequestTransport, Sendable {
    package let status: Int
    package let headers: [String: String]
    package let body: Data
    private let recorded = Locked<[URLRequest]>([])

    package init(status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"], body: String = "{}") {
        self.status = status
        self.headers = headers
        self.body = Data(body.utf8)
    }

    package var requests: [URLRequest] { recorded.value }

    /// The one request sent so far.
    package var request: URLRequest {
        get throws {
            let all = requests
            guard all.count == 1 else { throw Unexpected(description: "\(all.count) requests were sent") }
            return all[0]
        }
    }

    package func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (body, response)
    }

    package struct Unexpected: Error, CustomStringConvertible { package let description: String }
}

/// A transport that always throws `error`.
package struct FailingTransport: WholeRequestTransport {
    package let error: any Error
    package init(error: any Error) { self.error = error }
    package func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { throw error }
}

extension APIServer {
    /// A server at `https://api.example.com` with an in-memory transport.
    package static func stub(
        _ transport: any HTTPTransport,
        origin: String = "https://api.example.com",
        pathPrefix: String = "/api/v{version}",
        encoder: JSONEncoder = sortedEncoder()
    ) -> APIServer {
        APIServer(origin: URL(string: origin)!, pathPrefix: pathPrefix, transport: transport, encoder: encoder)
    }

    /// The default encoder with sorted keys, so bodies can be compared byte for byte.
    package static func sortedEncoder() -> JSONEncoder {
        let encoder = APIServer.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension URLRequest {
    package var bodyText: String? { httpBody.map { String(decoding: $0, as: UTF8.self) } }
}

/// A transport that answers each request with what `answer` returns, and records the requests.
package final class ClosureTransport: WholeRequestTransport, Sendable {
    private let answer: @Sendable (URLRequest) throws -> (status: Int, headers: [String: String], body: String)
    private let recorded = Locked<[URLRequest]>([])

    package init(_ answer: @escaping @Sendable (URLRequest) throws -> (status: Int, headers: [String: String], body: String)) {
        self.answer = answer
    }

    package var requests: [URLRequest] { recorded.value }
    package var urls: [String] { requests.map { $0.url?.absoluteString ?? "" } }

    package func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        let (status, headers, body) = try answer(request)
        var all = headers
        if all["Content-Type"] == nil { all["Content-Type"] = "application/json" }
        return (Data(body.utf8), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: all)!)
    }
}

extension URLRequest {
    /// The query item `name`'s value, percent-decoded.
    package func query(_ name: String) -> String? {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value }
    }
}

/// A test transport that answers whole requests, with the body in `httpBody` (a body on disk or a
/// stream read into it): most tests look at the request as one value.
package protocol WholeRequestTransport: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

extension WholeRequestTransport {
    package func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        if let body { request.httpBody = try await body.collect(upTo: .max) }
        let (data, response) = try await send(request)
        return (.data(data), response)
    }
}
