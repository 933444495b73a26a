// swift-tools-version: 6.2
import PackageDescription

// A test harness, not a package to depend on: the transport is the root package's
// `EndpointKitAsyncHTTPClient` product, behind its `AsyncHTTPClient` trait. This package turns the
// trait on and runs the transport's own tests and EndpointKit's integration suite over it.
let package = Package(
    name: "EndpointKitAsyncHTTPClientTests",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [
        .package(name: "EndpointKit", path: "..", traits: ["AsyncHTTPClient"]),
    ],
    targets: [
        .testTarget(
            name: "EndpointKitAsyncHTTPClientTests",
            dependencies: [
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKit"),
                .product(name: "EndpointKit", package: "EndpointKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // EndpointKit's whole integration suite (the root's `Tests/EndpointKitIntegrationTests`,
        // reached through the `Suite` link) over AsyncHTTPClientTransport: only the file that
        // chooses the transport is this package's own. Left out: the schema property test, which
        // sends nothing (JSON Schema against Codable, checked by Python's hypothesis) and took 286
        // of the harness's 286 s in CI; the root's `swift test` runs it.
        .testTarget(
            name: "IntegrationSuite",
            dependencies: [
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKit"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitTesting", package: "EndpointKit"),
                .product(name: "EndpointKitContract", package: "EndpointKit"),
                .product(name: "EndpointKitTools", package: "EndpointKit"),
                .product(name: "EndpointKitMCP", package: "EndpointKit"),
            ],
            exclude: ["Suite/Server", "Suite/IntegrationTransport.swift", "Suite/SchemaPropertyTests.swift"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
