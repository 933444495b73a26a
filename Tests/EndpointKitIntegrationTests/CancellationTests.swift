// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Cancellation at every moment of a call: before it starts, as it starts, while it queues. Before
/// EndpointKit serialised start and cancel, URLSession on Linux crashed the process in about one
/// run in four of these, and cancelled calls still reached the server.
@Suite struct CancellationTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    struct Mark: Endpoint {
        var endpoint: Restful { Restful(.post, "mark/\(run)/\(index)") }
        let run: String
        let index: Int
        let payload = "x"
        typealias ReturnPayloadType = Echo
        enum CodingKeys: CodingKey { case payload }
    }

    @Test func `a call from an already-cancelled task throws CancellationError and sends nothing`() async throws {
        let run = UUID().uuidString
        let server = loopback.server()
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<300 {
                group.addTask {
                    withUnsafeCurrentTask { $0?.cancel() }
                    do {
                        _ = try await Mark(run: run, index: index).call(on: server)
                        return "result"
                    } catch is CancellationError {
                        return "cancelled"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.count == 300)
        #expect(outcomes.allSatisfy { $0 == "cancelled" }, "\(Set(outcomes))")
        #expect(try await Seen(prefix: "/mark/\(run)/").call(on: server).paths.isEmpty)
    }

    /// Also through a bare `URLSession`, whose `data(for:)` on Linux once hung the whole test
    /// process: it cancels its task while the Swift runtime holds the calling task's lock, and
    /// waits there for URLSession's work queue, which was waiting for that lock to hand back an
    /// answer.
    static let bareSession = URLSession(configuration: .ephemeral)

    @Test(arguments: ["URLSessionTransport", "a bare URLSession"])
    func `cancelling 0 to 3 ms after a call starts never crashes and always ends the call`(transport: String) async throws {
        let server = transport == "a bare URLSession" ? loopback.server(transport: Self.bareSession) : loopback.server()
        let run = UUID().uuidString
        var outcomes: [String: Int] = [:]
        for round in 0..<3 {
            // Each call is cancelled 0, 1, 2 or 3 ms after it starts, 100 at a time.
            let results = await withTaskGroup(of: String.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let call = Task { try await Mark(run: run, index: round * 100 + index).call(on: server) }
                        try? await Task.sleep(nanoseconds: UInt64(index % 4) * 1_000_000)
                        call.cancel()
                        switch await call.result {
                        case .success: return "answered"
                        case .failure(is CancellationError): return "cancelled"
                        case .failure(let error): return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            for result in results { outcomes[result, default: 0] += 1 }
        }
        #expect(outcomes.values.reduce(0, +) == 300)
        #expect(Set(outcomes.keys).isSubset(of: ["answered", "cancelled"]), "\(outcomes)")
        print("cancelled 0–3 ms after start: \(outcomes)")
    }

    struct Slow: Endpoint {
        var endpoint: Restful { Restful(.get, "slow") }
        let seconds: Double
        var key = ""
        struct ReturnPayloadType: Decodable, Sendable { let slept: Double }
    }

    @Test(.timeLimit(.minutes(2)))
    func `cancelled calls queued behind busy connections are never sent`() async throws {
        let configuration = URLSessionTransport.makeConfiguration()
        configuration.httpMaximumConnectionsPerHost = 2
        let server = loopback.server(transport: URLSessionTransport(configuration: configuration))
        // Both connections stay busy for 30 s, far longer than queueing and cancelling take. The
        // queued calls start only once the server holds both, however busy the machine is.
        let run = UUID().uuidString
        let blockers = (0..<2).map { _ in Task { try await Slow(seconds: 30, key: run).call(on: server) } }
        while try await Concurrency(key: run).call(on: loopback.server()).max < 2 {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let queued = (0..<500).map { index in Task { try await Mark(run: run, index: index).call(on: server) } }
        try await Task.sleep(nanoseconds: 300_000_000)
        for call in queued { call.cancel() }
        for call in queued {
            await #expect(throws: CancellationError.self) { try await call.value }
        }
        // Free the connections: anything still queued would be sent now.
        for blocker in blockers { blocker.cancel() }
        for blocker in blockers { _ = await blocker.result }
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(try await Seen(prefix: "/mark/\(run)/").call(on: loopback.server()).paths.isEmpty)
    }
}
#endif
