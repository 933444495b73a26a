// swift-tools-version: 6.2
import PackageDescription

// The runnable examples live in their own package so that the server they embed (Hummingbird) and
// the OpenAPI client runtime never become dependencies of EndpointKit itself.
let package = Package(
    name: "EndpointKitExamples",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "EndpointKit", path: "..", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
    ],
    targets: [
        // The demo's APIs on 127.0.0.1, shared by both executables.
        .target(
            name: "DemoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "EndpointKitMCP", package: "EndpointKit"),  // /mcp
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "Demo",
            dependencies: [
                "DemoServer",
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitTesting", package: "EndpointKit"),   // --stubbed
                .product(name: "EndpointKitContract", package: "EndpointKit"),  // --openapi
                .product(name: "EndpointKitTools", package: "EndpointKit"),     // the agent loop
                .product(name: "EndpointKitMCP", package: "EndpointKit"),       // --mcp, --mcp-http
                // On Linux the demo's calls go over SwiftNIO (see DemoTransport.swift).
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKit", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // A SwiftUI list loaded through an endpoint, with a #Preview on stubs, built as a new Xcode 26
        // app target is: main actor by default, approachable concurrency. Its view is Apple-only.
        .target(
            name: "CheersApp",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitTesting", package: "EndpointKit"),
            ],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        ),
        // A Hummingbird route file beside EndpointKit, every name unqualified (see the file).
        .target(
            name: "RouteFiles",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKit"),
                .product(name: "EndpointKitTools", package: "EndpointKit"),
                .product(name: "EndpointKitMCP", package: "EndpointKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Calls the demo server through the client swift-openapi-generator 1.14.3 made from the
        // document `Demo --openapi` prints (generated code committed: see OpenAPI/generate.sh).
        .executableTarget(
            name: "OpenAPIRoundTrip",
            dependencies: [
                "DemoServer",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
