@testable import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Where `URLSessionTransport` makes and resumes its URLSession tasks. On Linux both wait for the
/// one work queue every session shares, busy for as long as libcurl's pass over a fast download
/// takes; a Swift task waiting there holds one of the threads all Swift tasks share, two on a
/// two-core machine. Under load, two such waits stopped every task of the test suite for tens of
/// seconds (issue 53).
@Suite struct ExchangeStartTests {
    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `an exchange makes and resumes its task outside every Swift task`() async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let request = URLRequest(url: URL(string: "http://127.0.0.1:9/never")!)  // a closed port
        let exchange = Exchange(request: request, uploadsFile: false, context: TransportContext(input: Ping()))
        let madeInSwiftTask = Locked<Bool?>(nil)
        let running = Task {
            await exchange.run(deadline: .infinity) {
                madeInSwiftTask.withLock { $0 = withUnsafeCurrentTask { $0 != nil } }
                return session.dataTask(with: request)  // a session without the transport's delegate
            }
        }
        for _ in 0..<2_000 where madeInSwiftTask.withLock({ $0 }) == nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        exchange.complete(error: URLError(.cannotConnectToHost))  // what the delegate would report
        guard case .failure(let error) = await running.value else {
            Issue.record("the exchange did not fail")
            return
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(madeInSwiftTask.withLock { $0 } == false)
    }
}
