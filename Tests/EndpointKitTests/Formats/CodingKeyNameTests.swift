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

    @Test func `the case name of a coding key is read, and only for enum keys`() {
        #expect(CodingKeyName.differingSwiftName(of: Record.CodingKeys.recordId) == "recordId")
        #expect(CodingKeyName.differingSwiftName(of: Manifest.CodingKeys.reference) == nil)  // names agree
        #expect(CodingKeyName.isSpelledExplicitly(Record.CodingKeys.recordId))
        #expect(!CodingKeyName.isSpelledExplicitly(Manifest.CodingKeys.mediaType))
        struct PlainKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        #expect(CodingKeyName.differingSwiftName(of: PlainKey(stringValue: "a")) == nil)
        #expect(CodingKeyName.isEnum(Record.CodingKeys.self))
        #expect(!CodingKeyName.isEnum(PlainKey.self))
        #expect(!CodingKeyName.isEnum(Optional<Record.CodingKeys>.self))
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

    @Test func `keys without case names that need none are sent as usual`() throws {
        // `pageSize` converts to `page_size` whether or not it was spelled by hand: no name needed…
        #expect(SnakeCase.convertUnlessExplicit(PlainKeys.pageSize) == "page_size")
        // …but it was asked for, and counted as a miss on this thread.
        let before = CodingKeyName.missesOnThisThread
        _ = CodingKeyName.differingSwiftName(of: PlainKeys.pageSize)
        #expect(CodingKeyName.missesOnThisThread == before + 1)
    }
}
