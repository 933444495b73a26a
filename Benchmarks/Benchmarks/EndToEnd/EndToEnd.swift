import Benchmark
import Contenders
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// End to end over loopback against the local server whose origin is in BENCH_ORIGIN (Benchmarks/run.sh
// starts it). One sample is BENCH_CALLS calls (2,000 by default), one after another or from 8 or 64
// concurrent tasks. Requests per second = calls / wall-clock time.

let benchmarks: @Sendable () -> Void = {
    let environment = ProcessInfo.processInfo.environment
    guard let originText = environment["BENCH_ORIGIN"], let originURL = URL(string: originText) else {
        print("BENCH_ORIGIN is not set: skipping the end-to-end benchmarks (Benchmarks/run.sh sets it)")
        return
    }
    let calls = Int(environment["BENCH_CALLS"] ?? "") ?? 2_000
    let smoke = environment["BENCH_SMOKE"] != nil
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident],
        maxDuration: .seconds(smoke ? 1 : 20),
        maxIterations: smoke ? 1 : 7
    )

    let raw = SessionSender(session: URLSession(configuration: .ephemeral))
    let endpointKit = APIServer(origin: originURL)
    let openAPI = OpenAPIContender.client(origin: originURL)

    typealias Call = @Sendable () async throws -> Int
    let contenders: [(String, Call, Call)] = [
        ("raw URLSession",
         { try await HandWrittenClient.listBranches(origin: originText, sender: raw) },
         { try await HandWrittenClient.purchaseCheer(origin: originText, sender: raw) }),
        ("EndpointKit",
         { try await EndpointKitClient.listBranches(on: endpointKit) },
         { try await EndpointKitClient.purchaseCheer(on: endpointKit) }),
        ("OpenAPI generated",
         { try await OpenAPIContender.listBranches(client: openAPI) },
         { try await OpenAPIContender.purchaseCheer(client: openAPI) }),
    ]

    for (name, get, post) in contenders {
        for (operation, call) in [("GET", get), ("POST", post)] {
            Benchmark("\(operation) sequential \(name)") { benchmark in
                for _ in 0..<calls {
                    blackHole(try await call())
                }
            }
            for width in [8, 64] {
                Benchmark("\(operation) \(width) concurrent \(name)") { benchmark in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for task in 0..<width {
                            let share = calls / width + (task < calls % width ? 1 : 0)
                            group.addTask {
                                for _ in 0..<share { blackHole(try await call()) }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
        }
    }
}
