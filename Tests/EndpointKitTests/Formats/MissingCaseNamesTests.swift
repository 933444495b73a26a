@testable import EndpointKit
import Foundation
import ReflectionFreeFixtures
import Testing

/// How a key without a case name travels out of a `JSONEncoder`, whose key strategy cannot throw:
/// marked in the bytes, and found there.
@Suite struct MissingCaseNamesTests {
    /// A JSON encoder's key strategy cannot throw: the key it cannot name is marked in the bytes,
    /// and found there whether JSON escaped it or a writer kept it raw.
    @Test func `a key a JSON encoder could not name is found in what it wrote`() throws {
        let json = try APIServer.makeEncoder().encode(["body": ReflectionFreeFixtures.ImageManifest(version: 2, mediaType: "oci")])
        #expect(String(decoding: json, as: UTF8.self).contains(#"\u0000EndpointKit.MissingCaseNames:ReflectionFreeFixtures.ImageManifest.CodingKeys\u0000""#))
        #expect(MissingCaseNames.found(in: json)?.keyType == "ReflectionFreeFixtures.ImageManifest.CodingKeys")
        let raw = MissingCaseNames(markedKey: "\u{0}EndpointKit.MissingCaseNames:A.B.CodingKeys\u{0}")
        #expect(raw?.keyType == "A.B.CodingKeys")
        #expect(MissingCaseNames.found(in: Data("name,\(raw!.markedKey)\n".utf8))?.keyType == "A.B.CodingKeys")
        // Backslashes and NULs of other kinds are data, not a miss.
        #expect(MissingCaseNames.found(in: Data(#"{"path":"a\/b","nul":"\u0000x"}"#.utf8)) == nil)
        #expect(MissingCaseNames.found(in: Data([0, 0x5C, 0x75])) == nil)
    }

    @Test func `the error names the type and the build setting`() {
        let missing = MissingCaseNames(markedKey: "\u{0}EndpointKit.MissingCaseNames:Shop.Order.CodingKeys\u{0}")!
        #expect(missing.description.hasPrefix("the case names of Shop.Order.CodingKeys are not in the app's binary"))
        #expect(missing.description.contains("SWIFT_REFLECTION_METADATA_LEVEL"))
        #expect(missing.description.hasSuffix("for the target that declares Order"))
        #expect(MissingCaseNames(markedKey: "Shop.Order.CodingKeys") == nil)
    }
}
