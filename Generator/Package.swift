// swift-tools-version: 6.1
import PackageDescription

// Generates EndpointKit endpoint structs from an OpenAPI 3.0 or 3.1 document. A side package: the
// document readers it needs (OpenAPIKit, Yams) never become dependencies of EndpointKit itself.
let package = Package(
    name: "EndpointKitGenerator",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "endpointkit-generate", targets: ["endpointkit-generate"]),
    ],
    dependencies: [
        // Without its default trait: external reference loading, which the generator refuses anyway,
        // costs minutes of build and gigabytes of memory.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", exact: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "EndpointKitGenerator",
            dependencies: [
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "endpointkit-generate",
            dependencies: [
                "EndpointKitGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "EndpointKitGeneratorTests",
            dependencies: ["EndpointKitGenerator"],
            exclude: ["Documents"]  // read by path, as a user's documents are
        ),
    ],
    swiftLanguageModes: [.v6]
)
