// The servers run as child `Process`es, which exist on macOS and Linux only: on iOS, tvOS and
// watchOS these tests compile to nothing.
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

/// Server-Sent Events from sse-starlette (PyPI), served by uvicorn: an implementation nobody on
/// EndpointKit wrote, with its own framing (CRLF line ends, `retry`, keep-alive pings).
@Suite struct ThirdPartySSETests {
    let server: APIServer

    init() async throws {
        let port = try await onOwnThread { try PythonScriptServer.sseStarlette.get().port }
        server = APIServer(origin: URL(string: "http://127.0.0.1:\(port)")!, pathPrefix: "", transport: IntegrationTransport.shared)
    }

    struct Update: Decodable, Sendable, Equatable { let n: Int; let word: String }

    struct Updates: Endpoint {
        let endpoint = Restful(.get, "events")
        typealias ReturnPayloadType = ServerSentEvents<Update>
    }

    struct Everything: Endpoint {
        let endpoint = Restful(.get, "events")
        typealias ReturnPayloadType = ServerSentEvents<String>
    }

    @Test func `sse-starlette's events decode with their types and ids`() async throws {
        var events: [ServerSentEvent<String>] = []
        for try await event in try await Everything().call(on: server) { events.append(event) }
        let words = ["alpha", "beta", "gamma", "delta", "epsilon"]
        #expect(events.count == 6)
        #expect(events.prefix(5).map(\.type) == Array(repeating: "update", count: 5))
        #expect(events.map(\.id) == (1...6).map { String($0) })
        #expect(events.prefix(5).map(\.data) == (1...5).map { #"{"n": \#($0), "word": "\#(words[$0 - 1])"}"# })
        #expect(events.last == ServerSentEvent(type: "note", data: "first line\nsecond line", id: "6"))
    }

    @Test func `a stream whose events are not all the payload fails at the first that is not`() async throws {
        var updates: [Update] = []
        let error = await #expect(throws: EndpointError.self) {
            for try await event in try await Updates().call(on: server) { updates.append(event.data) }
        }
        #expect(updates.map(\.n) == [1, 2, 3, 4, 5])
        #expect(error?.kind == .decodingFailed)  // the "note" event's data is text
    }

    @Test func `breaking out of an endless sse-starlette stream is seen by the server`() async throws {
        struct Endless: Endpoint {
            var endpoint: Restful { Restful(.get, "endless/{key}") }
            let key: String
            struct Tick: Decodable, Sendable { let n: Int }
            typealias ReturnPayloadType = ServerSentEvents<Tick>
        }
        struct Closed: Endpoint {
            var endpoint: Restful { Restful(.get, "closed/{key}") }
            let key: String
            struct ReturnPayloadType: Decodable, Sendable { let closed: Bool }
        }
        let key = UUID().uuidString
        var seen: [Int] = []
        for try await event in try await Endless(key: key).call(on: server) {
            seen.append(event.data.n)
            if seen.count == 3 { break }
        }
        #expect(seen == [0, 1, 2])
        let start = Date()
        var closed = false
        while !closed, Date().timeIntervalSince(start) < 20 {
            try await Task.sleep(nanoseconds: 20_000_000)
            closed = try await Closed(key: key).call(on: server).closed
        }
        #expect(closed)
    }
}

#endif
