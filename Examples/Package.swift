// swift-tools-version: 6.0
import PackageDescription

// The runnable example lives in its own package so that the server it embeds (Hummingbird) never
// becomes a dependency of EndpointKit itself.
let package = Package(
    name: "EndpointKitExamples",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "Demo",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
