@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-memory transport whose answers a closure decides, from the request and how many came
/// before it. Records every request.
final class ScriptedTransport: WholeRequestTransport {
    struct Answer: Sendable {
        var status = 200
        var headers = ["Content-Type": "application/json"]
        var body = "{}"
    }

    private let recorded = Locked<[URLRequest]>([])
    private let script: @Sendable (URLRequest, Int) async throws -> Answer

    init(_ script: @escaping @Sendable (URLRequest, Int) async throws -> Answer) {
        self.script = script
    }

    var requests: [URLRequest] { recorded.value }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let index = recorded.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        let answer = try await script(request, index)
        let response = HTTPURLResponse(url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)!
        return (Data(answer.body.utf8), response)
    }
}

/// Collects log lines.
final class LogCollector: Sendable {
    private let collected = Locked<[String]>([])
    var lines: [String] { collected.value }
    var text: String { lines.joined(separator: "\n") }
    func append(_ line: String) { collected.withLock { $0.append(line) } }
}
