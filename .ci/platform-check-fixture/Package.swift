// swift-tools-version: 6.2
// The fixture of `.ci/platform-check --self-test`: known defects that a Linux build does not see,
// each beside a form that is right. `expected.txt` lists what the check must find, and nothing else.
import PackageDescription

let package = Package(
    name: "PlatformCheckFixture",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    targets: [.target(name: "Fixture")],
    swiftLanguageModes: [.v6]
)
