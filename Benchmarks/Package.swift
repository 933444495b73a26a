// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the harness, the OpenAPI client and the server they
// measure against never become dependencies of EndpointKit itself. Run them with ./run.sh.
let package = Package(
    name: "EndpointKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "EndpointKit", path: "..", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The four contenders, each calling the same two operations.
        .target(
            name: "Contenders",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["OpenAPIGenerated/README.md"]
        ),
        // The loopback server of the end-to-end runs.
        .executableTarget(
            name: "BenchServer",
            dependencies: [
                "Contenders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The streaming targets (issue 14): latency, memory, download throughput against curl, and
        // how soon a cancelled stream's server sees the close; against streaming_server.py.
        .executableTarget(
            name: "StreamingBench",
            dependencies: [
                "Contenders",
                .product(name: "EndpointKit", package: "EndpointKit"),
                // The same figures over AsyncHTTPClient, side by side (issue 42).
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKit"),
            ]
        ),
        // What MCP adds to a tool call: direct, through MCPServer.handle, and over stdio to a child.
        .executableTarget(
            name: "MCPLatency",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitTools", package: "EndpointKit"),
                .product(name: "EndpointKitMCP", package: "EndpointKit"),
            ]
        ),
        // Runs one contender's in-memory call N times, for instruction counts under callgrind.
        .executableTarget(
            name: "InstructionCount",
            dependencies: [
                "Contenders",
                .product(name: "EndpointKitTools", package: "EndpointKit"),
                .product(name: "EndpointKitMCP", package: "EndpointKit"),
            ]
        ),
        .executableTarget(
            name: "ClientOverhead",
            dependencies: ["Contenders", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/ClientOverhead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EndToEnd",
            dependencies: ["Contenders", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/EndToEnd",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
