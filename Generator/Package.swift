// swift-tools-version: 6.2
import PackageDescription

// The generator's test harness, not a package to depend on: the generator is the root package's
// `endpointkit-generate` executable, `GenerateEndpoints` command plugin and `EndpointKitGenerator`
// library, behind its `Generator` trait. This package turns the trait on and holds the tests, the
// fuzz target and the snapshot targets that compile generated code.
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
    name: "EndpointKitGeneratorTests",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "EndpointKit", path: "..", traits: ["Generator"]),
        // The versions the root resolves; the tests read documents with them too.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // libFuzzer's entry point for the loader and the mapper: Fuzz/run.sh builds it with the
        // sanitizers and links it with libFuzzer's main.
        .target(name: "GeneratorFuzz", dependencies: [.product(name: "EndpointKitGenerator", package: "EndpointKit")]),
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
                "PetstoreAPI", "PetstorePublic", "ShelterAPI", "DemoAPI", "ShelterMCP",
                .product(name: "EndpointKitGenerator", package: "EndpointKit"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitContract", package: "EndpointKit"),
            ],
            exclude: ["Documents", "Servers"]  // read by path, as a user's documents are
        ),
    ],
    swiftLanguageModes: [.v6]
)
