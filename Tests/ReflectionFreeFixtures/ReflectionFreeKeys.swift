// Compiled with `-disable-reflection-metadata`, as Xcode compiles an app target whose Reflection
// Metadata Level is "None": these enums have no case names at run time. In no product; the tests
// of what EndpointKit does without case names use them.

/// A body whose `CodingKeys` spell one key by hand (`schemaVersion`), the others implicitly.
public struct ImageManifest: Encodable, Sendable {
    public let version: Int
    public let mediaType: String

    public init(version: Int, mediaType: String) {
        self.version = version
        self.mediaType = mediaType
    }

    enum CodingKeys: String, CodingKey {
        case version = "schemaVersion"
        case mediaType
    }
}

/// A key enum with nothing spelled by hand.
public enum PlainKeys: String, CodingKey {
    case pageSize
}
