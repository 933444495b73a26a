import Benchmark
import Contenders
import EndpointKit
import Foundation

// Client-side cost per call, no network: every contender answers from memory with the same bytes.
// One sample is 1,000 calls; scaled metrics (*) are per call.

let benchmarks: @Sendable () -> Void = {
    let smoke = ProcessInfo.processInfo.environment["BENCH_SMOKE"] != nil
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],  // instructions: run.sh counts them with callgrind
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: smoke ? .milliseconds(200) : .seconds(3),
        maxIterations: smoke ? 3 : 1_000
    )
    let origin = Fixtures.origin.absoluteString
    let canned = CannedSender()
    let openAPI = OpenAPIContender.inMemory

    Benchmark("GET EndpointKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await EndpointKitClient.listBranches(on: EndpointKitClient.inMemory))
        }
    }
    Benchmark("GET hand-written snake_case") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HandWrittenClient.listBranches(origin: origin, sender: canned))
        }
    }
    Benchmark("GET hand-written explicit keys") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await ExplicitKeysClient.listBranches(origin: origin, sender: canned))
        }
    }
    Benchmark("GET hand-written snake_case allHTTPHeaderFields") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HandWrittenClient.listBranches(origin: origin, sender: canned, headers: .allAtOnce))
        }
    }
    Benchmark("GET hand-written explicit keys allHTTPHeaderFields") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await ExplicitKeysClient.listBranches(origin: origin, sender: canned, headers: .allAtOnce))
        }
    }
    Benchmark("GET OpenAPI generated") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await OpenAPIContender.listBranches(client: openAPI))
        }
    }

    Benchmark("POST EndpointKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await EndpointKitClient.purchaseCheer(on: EndpointKitClient.inMemory))
        }
    }
    Benchmark("POST hand-written snake_case") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HandWrittenClient.purchaseCheer(origin: origin, sender: canned))
        }
    }
    Benchmark("POST hand-written explicit keys") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: canned))
        }
    }
    Benchmark("POST hand-written snake_case allHTTPHeaderFields") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HandWrittenClient.purchaseCheer(origin: origin, sender: canned, headers: .allAtOnce))
        }
    }
    Benchmark("POST hand-written explicit keys allHTTPHeaderFields") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: canned, headers: .allAtOnce))
        }
    }
    Benchmark("POST OpenAPI generated") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await OpenAPIContender.purchaseCheer(client: openAPI))
        }
    }

    let search = SearchIssues()
    Benchmark("Query 20 fields EndpointKit") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await search.call(on: SearchIssues.server))
        }
    }
    Benchmark("Query 20 fields URLComponents") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(SearchIssues.handWrittenURL(search))
        }
    }
}
