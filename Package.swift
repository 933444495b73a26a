// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// Zero dependencies by default: a package that adds EndpointKit with its default traits resolves
// nothing else. The two optional parts that need other packages are products of this package whose
// dependencies only a trait, off by default, turns on (every use below carries `.when(traits:)`):
//   traits: ["AsyncHTTPClient"]  the EndpointKitAsyncHTTPClient transport (SwiftNIO's HTTP client);
//   traits: ["Generator"]        endpointkit-generate and the generate-endpoints command plugin.
// Without its trait, each of those products builds empty (the generator says which trait it needs).

let package = Package(
    name: "EndpointKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    // A small core and four optional products with no dependencies. Each optional product reaches
    // the core through `package` declarations only; the core knows nothing of tests, contracts or
    // models.
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
        .library(name: "EndpointKitTesting", targets: ["EndpointKitTesting"]),
        .library(name: "EndpointKitContract", targets: ["EndpointKitContract"]),
        .library(name: "EndpointKitTools", targets: ["EndpointKitTools"]),
        .library(name: "EndpointKitMCP", targets: ["EndpointKitMCP"]),
        // Trait "AsyncHTTPClient":
        .library(name: "EndpointKitAsyncHTTPClient", targets: ["EndpointKitAsyncHTTPClient"]),
        // Trait "Generator":
        .executable(name: "endpointkit-generate", targets: ["endpointkit-generate"]),
        .plugin(name: "GenerateEndpoints", targets: ["GenerateEndpoints"]),
        .library(name: "EndpointKitGenerator", targets: ["EndpointKitGenerator"]),
    ],
    traits: [
        .trait(name: "AsyncHTTPClient", description: "The EndpointKitAsyncHTTPClient product: a transport over swift-server's AsyncHTTPClient (SwiftNIO), for servers."),
        .trait(name: "Generator", description: "endpointkit-generate and the generate-endpoints command plugin: endpoint structs from an OpenAPI 3.0 or 3.1 document (OpenAPIKit, Yams, ArgumentParser)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Without OpenAPIKit's default trait: external reference loading, which the generator
        // refuses anyway, costs minutes of build and gigabytes of memory.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "EndpointKit", swiftSettings: swiftSettings),
        .target(name: "EndpointKitTesting", dependencies: ["EndpointKit"], swiftSettings: swiftSettings),
        .target(name: "EndpointKitContract", dependencies: ["EndpointKit"], swiftSettings: swiftSettings),
        .target(name: "EndpointKitTools", dependencies: ["EndpointKit", "EndpointKitContract"], swiftSettings: swiftSettings),
        .target(name: "EndpointKitMCP", dependencies: ["EndpointKit", "EndpointKitContract", "EndpointKitTools"], swiftSettings: swiftSettings),
        .target(
            name: "EndpointKitAsyncHTTPClient",
            dependencies: [
                "EndpointKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "EndpointKitGenerator",
            dependencies: [
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: .when(traits: ["Generator"])),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit", condition: .when(traits: ["Generator"])),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit", condition: .when(traits: ["Generator"])),
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Generator"])),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "endpointkit-generate",
            dependencies: [
                "EndpointKitGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Generator"])),
            ],
            swiftSettings: swiftSettings
        ),
        .plugin(
            name: "GenerateEndpoints",
            capability: .command(
                intent: .custom(verb: "generate-endpoints", description: "Writes EndpointKit endpoint structs for an OpenAPI document (needs the Generator trait)."),
                permissions: [.writeToPackageDirectory(reason: "It writes the generated Swift files into the folder given with --output.")]
            ),
            dependencies: ["endpointkit-generate"]
        ),
        // One test target per product, each folder mirroring its product's sources; the core's
        // also compiles every documentation sample (DocSamples/), which use every product.
        .testTarget(
            name: "EndpointKitTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitContract", "EndpointKitTools", "EndpointKitMCP", "ReflectionFreeFixtures", "EndpointKitTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndpointKitTestingTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitContract", "EndpointKitTools", "EndpointKitTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndpointKitContractTests",
            dependencies: ["EndpointKit", "EndpointKitContract", "EndpointKitTesting", "EndpointKitTools", "EndpointKitMCP", "ReflectionFreeFixtures", "EndpointKitTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndpointKitToolsTests",
            dependencies: ["EndpointKit", "EndpointKitContract", "EndpointKitTesting", "EndpointKitTools", "EndpointKitTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndpointKitMCPTests",
            dependencies: ["EndpointKit", "EndpointKitContract", "EndpointKitTools", "EndpointKitMCP", "EndpointKitTestSupport"],
            swiftSettings: swiftSettings
        ),
        // What the unit tests share: in-memory transports and a stub server. In no product.
        .target(name: "EndpointKitTestSupport", dependencies: ["EndpointKit"], path: "Tests/Support", swiftSettings: swiftSettings),
        // Types compiled as an app target with Reflection Metadata Level "None" is: enums without
        // case names. In no product, so the flag never reaches a user's build.
        .target(
            name: "ReflectionFreeFixtures",
            dependencies: ["EndpointKit"],
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
        // The extension points used as an app would, from outside the library: built-in middlewares
        // (`Throttle.swift` is a link to the library's file, beside stand-ins for the few internal
        // helpers it uses), a middleware's own per-endpoint option, a body format of its own.
        .testTarget(
            name: "BuiltInsFromOutside",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitContract"],
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
