// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
import Testing

@Suite struct ConcurrencyTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    struct Lookup: Endpoint {
        var endpoint: Restful { Restful(.get, "lookup/{id}") }
        let id: Int
        let tag: String
        typealias ReturnPayloadType = Echo
    }

    @Test func `100 concurrent calls each get their own answer`() async throws {
        let server = loopback.server()
        let answers = try await withThrowingTaskGroup(of: (Int, Echo).self) { group in
            for id in 0..<100 {
                group.addTask { (id, try await Lookup(id: id, tag: "t\(id)").call(on: server)) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 100)
        for (id, echo) in answers {
            #expect(echo.target == "/lookup/\(id)?tag=t\(id)")
        }
    }
}
#endif
