// Compiled with `-disable-reflection-metadata`, as Xcode compiles an app target whose Reflection
// Metadata Level is "None": these enums have no case names at run time. In no product; the tests
// of what EndpointKit does without case names use them.

import EndpointKit

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
    case id
}

/// An answer whose `CodingKeys` spell one key by hand: what JSON Schemas, OpenAPI documents and
/// tool output schemas are derived from.
public struct ManifestAnswer: Decodable, Sendable {
    public let version: Int
    public let mediaType: String

    enum CodingKeys: String, CodingKey {
        case version = "schemaVersion"
        case mediaType
    }
}

/// An endpoint whose own properties spell a key by hand (a tool's arguments, an OpenAPI
/// operation's body), answering with ``ManifestAnswer``.
public struct PutManifestVersion: Endpoint, Decodable {
    public var endpoint: Restful { Restful(.put, "manifests/current") }
    public let version: Int
    public let mediaType: String
    public typealias ReturnPayloadType = EmptyPayload

    enum CodingKeys: String, CodingKey {
        case version = "schemaVersion"
        case mediaType
    }
}

/// An endpoint whose properties are plain, answering with a type whose keys are spelled by hand.
public struct GetManifest: Endpoint, Decodable {
    public var endpoint: Restful { Restful(.get, "manifests/current") }
    public typealias ReturnPayloadType = ManifestAnswer
}
