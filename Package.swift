// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "EndpointKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
    ],
    targets: [
        .target(name: "EndpointKit", swiftSettings: swiftSettings),
        .testTarget(
            name: "EndpointKitTests",
            dependencies: ["EndpointKit"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndpointKitIntegrationTests",
            dependencies: ["EndpointKit"],
            exclude: ["Server"],
            swiftSettings: swiftSettings
        ),
        // Compiled like a new Xcode 26 app target (main actor by default), to prove what README
        // says about declaring endpoints and payloads there.
        .testTarget(
            name: "EndpointKitMainActorTests",
            dependencies: ["EndpointKit"],
            swiftSettings: swiftSettings + [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
