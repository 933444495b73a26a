@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import ReflectionFreeFixtures
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Custom `CodingKeys`: placeholders bind by Swift name, and hand-spelled keys are sent verbatim.
@Suite struct CodingKeyTests {
    struct Record: Endpoint {
        var endpoint: Restful { Restful(.get, "buckets/{bucketId}/records/{recordId}") }
        let bucketId: String
        let recordId: String
        let since: Int
        typealias ReturnPayloadType = EmptyPayload
        enum CodingKeys: String, CodingKey {
            case bucketId = "bucket_id"
            case recordId = "record_id"
            case since = "_since"
        }
    }

    @Test func `a placeholder binds the property by its Swift name, whatever its coding key`() async throws {
        let transport = RecordingTransport()
        try await Record(bucketId: "b1", recordId: "r 2", since: 5).call(on: .stub(transport))
        #expect(try transport.request.url?.absoluteString == "https://api.example.com/api/v1/buckets/b1/records/r%202?_since=5")
    }

    struct ByCodingKey: Endpoint {
        var endpoint: Restful { Restful(.get, "records/{record_id}") }
        let recordId: String
        typealias ReturnPayloadType = EmptyPayload
        enum CodingKeys: String, CodingKey { case recordId = "record_id" }
    }

    @Test func `a placeholder may also name the coding key`() async throws {
        let transport = RecordingTransport()
        try await ByCodingKey(recordId: "r1").call(on: .stub(transport))
        #expect(try transport.request.url?.absoluteString == "https://api.example.com/api/v1/records/r1")
    }

    struct Manifest: Endpoint {
        let endpoint = Restful(.put, "manifests/{reference}")
        let reference: String
        let version: Int
        let mediaType: String
        let layerCount: Int
        @QueryItem var tagName: String
        typealias ReturnPayloadType = EmptyPayload
        enum CodingKeys: String, CodingKey {
            case reference
            case version = "schemaVersion"   // camelCase on the wire, inside a snake_case API
            case mediaType                   // implicit: converted
            case layerCount = "layer_count"  // already snake_case: verbatim either way
            case tagName = "tagName"         // equal to the case name: cannot be told from implicit
        }
    }

    @Test func `a raw value that differs from its case name is sent verbatim in body and query`() async throws {
        let transport = RecordingTransport()
        try await Manifest(reference: "v1", version: 2, mediaType: "oci", layerCount: 3, tagName: "t").call(on: .stub(transport))
        let request = try transport.request
        #expect(request.bodyText == #"{"layer_count":3,"media_type":"oci","schemaVersion":2}"#)
        #expect(request.url?.query == "tag_name=t")
    }

    struct Search: Endpoint {
        let endpoint = Restful(.get, "search")
        let pageSize: Int
        let sortOrder: String
        typealias ReturnPayloadType = EmptyPayload
        enum CodingKeys: String, CodingKey { case pageSize = "pageSize", sortOrder = "SortBy" }
    }

    @Test func `queries follow the same rule`() async throws {
        let transport = RecordingTransport()
        try await Search(pageSize: 10, sortOrder: "asc").call(on: .stub(transport))
        #expect(try transport.request.url?.query == "page_size=10&SortBy=asc")
    }

    struct Item: Decodable, Sendable {
        let lastModified: Int
        enum CodingKeys: String, CodingKey { case lastModified = "last_modified" }
    }

    struct GetItem: Endpoint {
        let endpoint = Restful(.get, "item")
        typealias ReturnPayloadType = Item
    }

    @Test func `a snake_case raw value that the decoder cannot find says how to fix it`() async throws {
        let transport = RecordingTransport(body: #"{"last_modified":5}"#)
        let error = try await #require(throws: EndpointError.self) { try await GetItem().call(on: .stub(transport)) }
        #expect(error.kind == .decodingFailed)
        #expect(error.description.contains(#"the key "last_modified" is missing at the top level. The decoder converts the JSON's snake_case keys to camelCase before matching, so a CodingKeys raw value must be written "lastModified" (or left out), not "last_modified"; or decode with keyDecodingStrategy = .useDefaultKeys"#))
    }

    @Test func `the case name of a coding key is read, and only for enum keys`() throws {
        #expect(try CodingKeyName.differingSwiftName(of: Record.CodingKeys.recordId) == "recordId")
        #expect(try CodingKeyName.differingSwiftName(of: Manifest.CodingKeys.reference) == nil)  // names agree
        #expect(try CodingKeyName.isSpelledExplicitly(Record.CodingKeys.recordId))
        #expect(try !CodingKeyName.isSpelledExplicitly(Manifest.CodingKeys.mediaType))
        struct PlainKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        #expect(try CodingKeyName.differingSwiftName(of: PlainKey(stringValue: "a")) == nil)  // not an enum: no name, no miss
    }

    struct PutManifest: Endpoint {
        let endpoint = Restful(.put, "manifests/latest")
        let manifest: ReflectionFreeFixtures.ImageManifest
        typealias ReturnPayloadType = EmptyPayload
    }

    /// An app built with Reflection Metadata Level "None" has no case names: `schemaVersion`
    /// cannot be told from a property name there, and guessing would send `schema_version` in
    /// Release where Debug sends `schemaVersion`.
    @Test func `keys without case names fail the call with the build setting to change, and send nothing`() async throws {
        let transport = RecordingTransport()
        let error = try await #require(throws: EndpointError.self) {
            try await PutManifest(manifest: ReflectionFreeFixtures.ImageManifest(version: 2, mediaType: "oci")).call(on: .stub(transport))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.reason.contains("the case names of ReflectionFreeFixtures.ImageManifest.CodingKeys are not in the app's binary"))
        #expect(error.reason.contains("Reflection Metadata Level"))
        #expect(transport.requests.isEmpty)
        // Only the call whose keys missed fails: the next one, on the same thread, is sent.
        try await Manifest(reference: "v1", version: 2, mediaType: "oci", layerCount: 3, tagName: "t").call(on: .stub(transport))
        #expect(transport.requests.count == 1)
    }

    struct FindManifests: Endpoint {
        let endpoint = Restful(.get, "manifests")
        let like: ReflectionFreeFixtures.ImageManifest
        typealias ReturnPayloadType = EmptyPayload
    }

    /// The same in a query, where the keys of a nested value are named by the parameter encoder.
    @Test func `keys without case names in a query fail the call too`() async throws {
        let transport = RecordingTransport()
        let error = try await #require(throws: EndpointError.self) {
            try await FindManifests(like: ReflectionFreeFixtures.ImageManifest(version: 2, mediaType: "oci")).call(on: .stub(transport))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.reason.hasPrefix("the case names of ReflectionFreeFixtures.ImageManifest.CodingKeys are not in the app's binary"))
        #expect(transport.requests.isEmpty)
    }

    @Test func `a key without a case name fails only where its name decides what is sent`() throws {
        // `id` is the same in snake_case whether or not it was spelled by hand: no name is needed.
        #expect(try SnakeCase.convertUnlessExplicit(PlainKeys.id) == "id")
        // `pageSize` would be `page_size`, or itself if spelled by hand: which, only its name says.
        let missing = try #require(throws: MissingCaseNames.self) { try SnakeCase.convertUnlessExplicit(PlainKeys.pageSize) }
        #expect(missing.keyType == "ReflectionFreeFixtures.PlainKeys")
        #expect(try JSONEncoder.KeyEncodingStrategy.useDefaultKeys.wireName(for: PlainKeys.pageSize, at: []) == "pageSize")
    }
}
