import EndpointKit
import EndpointKitTesting
import Foundation

/// The demo's calls answered by a `StubTransport`, with no server and no network:
/// `swift run --package-path Examples Demo --stubbed`.
enum StubbedServer {
    static func make() -> APIServer {
        let stubs = StubTransport()
        // Typed values, made from each call (never encoded or decoded); an empty identifier gets
        // the 422 the real server gives, built into an EndpointError exactly as a real one.
        stubs.on(PurchaseCheer.self, .computed { call in
            call.identifier.isEmpty
                ? .json(#"{"error":"identifier and transaction_id are required"}"#, status: 422)
                : .value(.init(balance: 200))
        })
        // Bytes, through the real decoder: snake_case keys, RFC 3339 dates with and without fractions.
        stubs.on(CheerHistory.self, .computed { call in
            .json("""
                {"history": [
                  {"creator": "user\(call.userId)", "amount": 100, "product": "cheer.large", "date": "2024-05-01T12:30:00Z",
                   "comments": [{"signature": "Ann", "body": "Keep going!"}, {"body": "🎉"}]},
                  {"creator": "user\(call.userId)", "amount": 25, "product": "cheer.small", "date": "2024-05-02T08:15:30.250Z"}
                ]}
                """)
        })
        // Headers too, for callWithMetadata(); a short delay, as a network would take.
        stubs.on(ListBranches.self, .computed { call in
            let branches = ["main", "release/6.0", "release/6.1"].prefix(call.perPage ?? 30).map { name in
                #"{"name":"\#(name)","commit":{"sha":"5f2c1e0a9b8d7c6e5f4a3b2c1d0e9f8a7b6c5d4e","url":"https://api.github.com/repos/\#(call.owner)/\#(call.repo)/commits/5f2c1e0"},"protected":true,"protection_url":null}"#
            }
            return .json("[" + branches.joined(separator: ",") + "]",
                         headers: ["Link": #"<https://api.github.com/repositories/44838949/branches?page=2>; rel="next""#])
                .delayed(by: 0.05)
        })
        // The photo part is 2048 bytes in the demo; the stub reports that size.
        stubs.on(ChatCompletion.self, .events(
            ["Stubbed", " words", " stream", " too", "."].map { ServerSentEvent(data: #"{"choices":[{"delta":{"content":"\#($0)"}}]}"#) }
                + [ServerSentEvent(data: "[DONE]")],
            interval: 0.02))
        stubs.on(ExportReport.self, .chunks(Array(repeating: Data(repeating: 0x72, count: 256 << 10), count: 16), interval: 0.005,
                                            headers: ["Content-Length": String(4 << 20)]))
        stubs.on(UploadPhoto.self, .computed { call in
            .json(#"{"album":"\#(call.albumId)","received_bytes":2048}"#, status: 201)
        })
        return APIServer(origin: URL(string: "https://demo.invalid")!, transport: stubs,
                      middlewares: [RequestLogger { print("    log: \($0)") }])
    }
}
