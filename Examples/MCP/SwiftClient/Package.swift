// swift-tools-version: 6.1
import PackageDescription

// A second, independent MCP client for the example's servers: the official Swift SDK
// (modelcontextprotocol/swift-sdk), over stdio and Streamable HTTP. A side package of its own, so
// that neither the SDK nor its dependencies reach EndpointKit or the other examples.
let package = Package(
    name: "MCPSwiftClient",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .executableTarget(
            name: "mcp-swift-check",
            dependencies: [
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "SystemPackage", package: "swift-system"),  // the stdio transport's file descriptors
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
