// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the loopback server's echo route reports about the request it received.
struct Echo: Decodable, Sendable {
    let method: String
    /// The request target exactly as it arrived: percent-encoding intact.
    let target: String
    /// The path, percent-decoded by the server.
    let path: String
    /// The query as Python's `parse_qs` reads it.
    let query: [String: [String]]
    /// Header names lowercased.
    let headers: [String: String]
    let body: String
}

extension LoopbackServer {
    /// An unversioned EndpointKit server for the loopback server. Its decoder keeps keys as they
    /// are, because the echo's `query` and `headers` dictionaries have arbitrary keys.
    func server(
        pathPrefix: String = "",
        headers: [String: String] = ["User-Agent": APIServer.userAgent],
        transport: any HTTPTransport = IntegrationTransport.shared
    ) -> APIServer {
        APIServer(origin: origin, pathPrefix: pathPrefix, transport: transport, decoder: JSONDecoder(), headers: headers)
    }
}

/// Any status, content type and body, chosen by the caller.
struct Respond<ReturnPayloadType: Decodable & Sendable>: Endpoint {
    var endpoint: Restful { Restful(.get, "respond") }
    let status: Int
    let type: String
    let body: String
}

/// Request targets the loopback server received that start with `prefix`: proof that nothing
/// was sent.
struct Seen: Endpoint {
    var endpoint: Restful { Restful(.get, "seen") }
    let prefix: String
    struct ReturnPayloadType: Decodable, Sendable { let paths: [String] }
}

/// A payload the tests expect and the server may or may not deliver.
/// `GET /concurrency/KEY`: the most `/slow` calls for `KEY` the server held at once.
struct Concurrency: Endpoint {
    var endpoint: Restful { Restful(.get, "concurrency/\(key)") }
    let key: String
    struct ReturnPayloadType: Decodable, Sendable { let max: Int }
    enum CodingKeys: CodingKey {}  // the key is in the path only
}

struct Balance: Decodable, Sendable, Equatable {
    let balance: Int
}

/// A JSON object's text as a dictionary that compares by value, whatever the key order.
func jsonObject(_ text: String) throws -> NSDictionary {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
}

/// A value shared between tasks, behind a lock.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}
#endif
