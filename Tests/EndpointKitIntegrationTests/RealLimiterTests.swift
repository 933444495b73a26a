// The limiter runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS and
// watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// README's pacing against a real limiter nobody on EndpointKit wrote: FastAPI with slowapi
/// (`APIServer/slowapi_server.py`), "5 per 2 seconds", which answers 429 past its budget.
@Suite struct RealLimiterTests {
    let origin: URL

    init() async throws {
        let port = try await onOwnThread { try PythonScriptServer.slowAPI.get().port }
        origin = URL(string: "http://127.0.0.1:\(port)")!
    }

    struct Limited: Endpoint {
        var endpoint: Restful { Restful(.get, "limited/\(key)") }
        let key: String
        struct Answer: Decodable, Sendable { let ok: Bool }
        typealias ReturnPayloadType = Answer
        enum CodingKeys: CodingKey {}
    }

    struct Refused: Endpoint {
        var endpoint: Restful { Restful(.get, "refused/\(key)") }
        let key: String
        struct Count: Decodable, Sendable { let refused: Int }
        typealias ReturnPayloadType = Count
        enum CodingKeys: CodingKey {}
    }

    /// README's order is the policy first. Before, 12 calls at once sent 7 requests into a budget
    /// slowapi had just declared spent (the sixth 4 ms after an answer said "0 left"); with the
    /// two swapped, none.
    @Test(arguments: [true, false])
    func `twelve calls at once are all accepted, in either order`(policyFirst: Bool) async throws {
        let key = UUID().uuidString
        let policy = RateLimitPolicy(maximumWait: 10)
        let throttle = Throttle(maximumInFlight: 1)
        var configured = APIServer(origin: origin, pathPrefix: "", transport: IntegrationTransport.make())
        configured.middlewares = policyFirst ? [policy, throttle] : [throttle, policy]
        let server = configured
        let failures = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    do {
                        return try await Limited(key: key).call(on: server).ok ? nil : "not ok"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures.isEmpty, "\(failures.first ?? "")")
        let observer = APIServer(origin: origin, pathPrefix: "", transport: IntegrationTransport.shared)
        #expect(try await Refused(key: key).call(on: observer).refused == 0)
    }
}

#endif
