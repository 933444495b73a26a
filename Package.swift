// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "EndpointKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    // A small core and four optional products. Each optional product reaches the core through
    // `package` declarations only; the core knows nothing of tests, contracts or models.
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
        .library(name: "EndpointKitTesting", targets: ["EndpointKitTesting"]),
        .library(name: "EndpointKitContract", targets: ["EndpointKitContract"]),
        .library(name: "EndpointKitTools", targets: ["EndpointKitTools"]),
        .library(name: "EndpointKitMCP", targets: ["EndpointKitMCP"]),
    ],
    targets: [
        .target(name: "EndpointKit", swiftSettings: swiftSettings),
        .target(name: "EndpointKitTesting", dependencies: ["EndpointKit"], swiftSettings: swiftSettings),
        .target(name: "EndpointKitContract", dependencies: ["EndpointKit"], swiftSettings: swiftSettings),
        .target(name: "EndpointKitTools", dependencies: ["EndpointKit", "EndpointKitContract"], swiftSettings: swiftSettings),
        .target(name: "EndpointKitMCP", dependencies: ["EndpointKit", "EndpointKitContract", "EndpointKitTools"], swiftSettings: swiftSettings),
        .testTarget(
            name: "EndpointKitTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitContract", "EndpointKitTools", "EndpointKitMCP", "ReflectionFreeFixtures"],
            swiftSettings: swiftSettings
        ),
        // Types compiled as an app target with Reflection Metadata Level "None" is: enums without
        // case names. In no product, so the flag never reaches a user's build.
        .target(
            name: "ReflectionFreeFixtures",
            path: "Tests/ReflectionFreeFixtures",
            swiftSettings: swiftSettings + [.unsafeFlags(["-Xfrontend", "-disable-reflection-metadata"])]
        ),
        .testTarget(
            name: "EndpointKitIntegrationTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitContract", "EndpointKitTools", "EndpointKitMCP"],
            exclude: ["Server"],
            packageAccess: false,  // public API only: the EndpointKitAsyncHTTPClient package compiles it too
            swiftSettings: swiftSettings
        ),
        // A built-in middleware compiled from outside the library: `Throttle.swift` is a link to
        // the library's file, beside stand-ins for the few internal helpers it uses.
        .testTarget(
            name: "BuiltInsFromOutside",
            dependencies: ["EndpointKit"],
            packageAccess: false,  // EndpointKit's `package` declarations stay out of reach
            swiftSettings: swiftSettings
        ),
        // Compiled like a new Xcode 26 app target (main actor by default), to prove what README
        // says about declaring endpoints and payloads there.
        .testTarget(
            name: "EndpointKitMainActorTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitContract", "EndpointKitTools", "EndpointKitMCP"],
            swiftSettings: swiftSettings + [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
