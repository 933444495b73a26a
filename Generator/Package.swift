// swift-tools-version: 6.2
import PackageDescription

// Generates EndpointKit endpoint structs from an OpenAPI 3.0 or 3.1 document. A side package: the
// document readers it needs (OpenAPIKit, Yams) never become dependencies of EndpointKit itself.
//
// Snapshots/ holds generated code, committed: the tests compare the generator's output with it
// byte for byte, and these targets compile it, so a snapshot that no longer builds fails the build.
// What code generated with --mcp-server needs.
let mcpServerProducts: [Target.Dependency] = [
    .product(name: "EndpointKit", package: "EndpointKit"),
    .product(name: "EndpointKitContract", package: "EndpointKit"),
    .product(name: "EndpointKitTools", package: "EndpointKit"),
    .product(name: "EndpointKitMCP", package: "EndpointKit"),
]

let package = Package(
    name: "EndpointKitGenerator",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "endpointkit-generate", targets: ["endpointkit-generate"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
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
        // libFuzzer's entry point for the loader and the mapper: Fuzz/run.sh builds it with the
        // sanitizers and links it with libFuzzer's main.
        .target(name: "GeneratorFuzz", dependencies: ["EndpointKitGenerator"]),
        // Petstore, built as a new Xcode 26 app target is (main actor by default): generated code
        // must compile there.
        .target(
            name: "PetstoreAPI",
            dependencies: [.product(name: "EndpointKit", package: "EndpointKit")],
            path: "Snapshots/Petstore",
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        ),
        // Petstore with --access public --documented: a library module, imported by the tests as an
        // app imports one (no @testable).
        .target(
            name: "PetstorePublic",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitContract", package: "EndpointKit"),
            ],
            path: "Snapshots/PetstorePublic"
        ),
        // The FastAPI shelter server's own document (Tests/…/Servers/shelter.py): called by the tests.
        .target(
            name: "ShelterAPI",
            dependencies: [.product(name: "EndpointKit", package: "EndpointKit")],
            path: "Snapshots/Shelter"
        ),
        // The shelter's document generated with --mcp-server shelter-mcp: an MCP server of every
        // operation, driven by the official MCP client in the tests.
        .executableTarget(
            name: "ShelterMCP",
            dependencies: mcpServerProducts,
            path: "Snapshots/ShelterMCP"
        ),
        // A document whose every text tries to end its comment or string literal and inject code
        // (Documents/hostile.json), generated with --mcp-server: it compiles, so none got out.
        .executableTarget(
            name: "HostileMCP",
            dependencies: mcpServerProducts,
            path: "Snapshots/Hostile"
        ),
        // The demo's exported document, generated with --documented: exported again by the tests.
        .target(
            name: "DemoAPI",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitContract", package: "EndpointKit"),
            ],
            path: "Snapshots/Demo"
        ),
        .testTarget(
            name: "EndpointKitGeneratorTests",
            dependencies: [
                "EndpointKitGenerator", "PetstoreAPI", "PetstorePublic", "ShelterAPI", "DemoAPI", "ShelterMCP",
                .product(name: "Yams", package: "Yams"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitContract", package: "EndpointKit"),
            ],
            exclude: ["Documents", "Servers"]  // read by path, as a user's documents are
        ),
    ],
    swiftLanguageModes: [.v6]
)
