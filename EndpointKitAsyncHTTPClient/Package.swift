// swift-tools-version: 6.2
import PackageDescription

// A transport for EndpointKit over swift-server's AsyncHTTPClient (SwiftNIO), in a package of its
// own so that EndpointKit itself keeps no dependencies: an app adds this package beside it.
let package = Package(
    name: "EndpointKitAsyncHTTPClient",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "EndpointKitAsyncHTTPClient", targets: ["EndpointKitAsyncHTTPClient"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "EndpointKitAsyncHTTPClient",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "EndpointKitAsyncHTTPClientTests",
            dependencies: [
                "EndpointKitAsyncHTTPClient",
                .product(name: "EndpointKit", package: "EndpointKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // EndpointKit's whole integration suite (the root's `Tests/EndpointKitIntegrationTests`,
        // reached through the `Suite` link) over AsyncHTTPClientTransport: only the file that
        // chooses the transport is this package's own.
        .testTarget(
            name: "IntegrationSuite",
            dependencies: [
                "EndpointKitAsyncHTTPClient",
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitTesting", package: "EndpointKit"),
                .product(name: "EndpointKitContract", package: "EndpointKit"),
                .product(name: "EndpointKitTools", package: "EndpointKit"),
                .product(name: "EndpointKitMCP", package: "EndpointKit"),
            ],
            exclude: ["Suite/Server", "Suite/IntegrationTransport.swift"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
