@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Every JSON body a real API wants: vendor media types, explicit null, a whole-body property, no
/// body at all; and who decides the Content-Type.
@Suite struct JSONBodyWriterTests {
    func sent(_ endpoint: some Endpoint, server: (RecordingTransport) -> APIServer = { .stub($0) }) async throws -> URLRequest {
        let transport = RecordingTransport()
        _ = try await endpoint.callWithMetadata(on: server(transport))
        return try transport.request
    }

    struct PutManifest: Endpoint {
        var endpoint: Restful {
            Restful(.put, "{+name}/manifests/{reference}", body: .json(contentType: "application/vnd.oci.image.manifest.v1+json"))
        }
        let name: String
        let reference: String
        let version = 2
        let mediaType = "application/vnd.oci.image.manifest.v1+json"
        enum CodingKeys: String, CodingKey { case name, reference, mediaType, version = "schemaVersion" }
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a vendor JSON media type is sent as the Content-Type`() async throws {
        let request = try await sent(PutManifest(name: "library/ubuntu", reference: "latest"))
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/library/ubuntu/manifests/latest")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.oci.image.manifest.v1+json")
        #expect(request.bodyText == #"{"media_type":"application\/vnd.oci.image.manifest.v1+json","schemaVersion":2}"#)
    }

    struct PatchRecord: Endpoint {
        var endpoint: Restful { Restful(.patch, "records/{id}", body: .json(contentType: "application/merge-patch+json")) }
        let id: String
        var title: Nullable<String>? = nil
        var note: Nullable<String>? = nil
        var tags: Nullable<[String]>? = nil
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `Nullable sends null, nil stays absent`() async throws {
        let request = try await sent(PatchRecord(id: "r1", title: .value("Hello"), note: .null))
        #expect(request.bodyText == #"{"note":null,"title":"Hello"}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/merge-patch+json")
        let empty = try await sent(PatchRecord(id: "r1"))
        #expect(empty.bodyText == "{}")
    }

    @Test func `Nullable decodes null and values`() throws {
        struct Record: Decodable { let note: Nullable<String>; let title: Nullable<String> }
        let record = try JSONDecoder().decode(Record.self, from: Data(#"{"note":null,"title":"x"}"#.utf8))
        #expect(record.note == .null)
        #expect(record.title == .value("x"))
        #expect(record.title.wrapped == "x")
    }

    @Test func `Nullable in a query sends nothing`() async throws {
        struct Find: Endpoint {
            let endpoint = Restful(.get, "find")
            var owner: Nullable<String>? = .null
            var kind: Nullable<String>? = .value("a")
            typealias ReturnPayloadType = EmptyPayload
        }
        let request = try await sent(Find())
        #expect(request.url?.query == "kind=a")
    }

    struct PatchOperation: Encodable, Sendable {
        let op: String
        let path: String
        var value: String? = nil
    }

    struct PatchRepository: Endpoint {
        var endpoint: Restful { Restful(.patch, "repos/{id}", body: .json(contentType: "application/json-patch+json")) }
        let id: Int
        @QueryItem var dryRun = false
        @Body var operations: [PatchOperation]
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a Body property is the whole body, a top-level array`() async throws {
        let request = try await sent(PatchRepository(id: 7, operations: [
            PatchOperation(op: "remove", path: "/topics/0"),
            PatchOperation(op: "add", path: "/topics/-", value: "swift"),
        ]))
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/repos/7?dry_run=false")
        #expect(request.bodyText == #"[{"op":"remove","path":"\/topics\/0"},{"op":"add","path":"\/topics\/-","value":"swift"}]"#)
    }

    @Test func `a Body property with company in the body is an error naming the other property`() async throws {
        struct Mixed: Endpoint {
            let endpoint = Restful(.post, "mixed")
            @Body var document: [String: Int]
            let extra: String
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        let error = await #expect(throws: EndpointError.self) {
            try await Mixed(document: ["a": 1], extra: "x").call(on: .stub(transport))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.reason == #"Mixed sends its @Body property as the whole body, so the property "extra" has no place in it: mark it @QueryItem or @HeaderField, or name it in the path"#)
        #expect(transport.requests.isEmpty)
    }

    @Test func `a Body property in a form body is refused`() async throws {
        struct FormWithBody: Endpoint {
            let endpoint = Restful(.post, "form", body: .form)
            @Body var document: [String]
            typealias ReturnPayloadType = EmptyPayload
        }
        let error = await #expect(throws: EndpointError.self) {
            try await FormWithBody(document: ["a"]).call(on: .stub(RecordingTransport()))
        }
        #expect(error?.reason.contains("A @Body property is the whole JSON or raw body, but this endpoint sends a form body") == true)
    }

    @Test func `a Body property can be a raw body`() async throws {
        struct PutBlob: Endpoint {
            let endpoint = Restful(.put, "blob", body: .raw(contentType: "application/octet-stream"))
            @Body var blob: Data
            typealias ReturnPayloadType = EmptyPayload
        }
        let request = try await sent(PutBlob(blob: Data([1, 2, 3])))
        #expect(request.httpBody == Data([1, 2, 3]))
    }

    struct StartUpload: Endpoint {
        var endpoint: Restful { Restful(.post, "{+name}/blobs/uploads/", body: .empty) }
        let name: String
        var mount: String? = nil
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `an empty body sends no bytes and no Content-Type; other properties form the query`() async throws {
        let request = try await sent(StartUpload(name: "library/ubuntu", mount: "sha256:abc"))
        #expect(request.httpMethod == "POST")
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/library/ubuntu/blobs/uploads/?mount=sha256%3Aabc")
    }

    @Test func `the endpoint's own Content-Type wins over the format's, the server's does not`() async throws {
        struct Explicit: Endpoint {
            static var headers: [String: String] { ["content-type": "application/vnd.api+json"] }
            let endpoint = Restful(.post, "things")
            let name = "a"
            typealias ReturnPayloadType = EmptyPayload
        }
        struct Plain: Endpoint {
            let endpoint = Restful(.post, "things")
            @HeaderField("X-Other") var other: String? = nil
            typealias ReturnPayloadType = EmptyPayload
        }
        let serverWithType: (RecordingTransport) -> APIServer = { transport in
            var server = APIServer.stub(transport)
            server.headers["Content-Type"] = "text/plain"
            return server
        }
        let explicit = try await sent(Explicit(), server: serverWithType)
        #expect(explicit.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        #expect(explicit.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "content-type" }.count == 1)
        let plain = try await sent(Plain(), server: serverWithType)
        #expect(plain.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func `a multipart body refuses the endpoint's own Content-Type`() async throws {
        struct Upload: Endpoint {
            let endpoint = Restful(.post, "upload", body: .multipart)
            @HeaderField("Content-Type") var type: String? = "multipart/form-data; boundary=mine"
            let title = "x"
            typealias ReturnPayloadType = EmptyPayload
        }
        let error = await #expect(throws: EndpointError.self) {
            try await Upload().call(on: .stub(RecordingTransport()))
        }
        #expect(error?.reason.contains("a multipart body's Content-Type names its boundary") == true)
    }

    @Test func `a JSON media type with a line break is refused`() async throws {
        struct Bad: Endpoint {
            var endpoint: Restful { Restful(.post, "x", body: .json(contentType: "application/json\r\nX-Evil: 1")) }
            typealias ReturnPayloadType = EmptyPayload
        }
        let error = await #expect(throws: EndpointError.self) {
            try await Bad().call(on: .stub(RecordingTransport()))
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func `body formats describe themselves`() {
        #expect(BodyFormat.json(contentType: "application/merge-patch+json").description == "json(application/merge-patch+json)")
        #expect(BodyFormat.empty.description == "empty")
        #expect(BodyFormat.json != BodyFormat.json(contentType: "application/json-patch+json"))
    }
}
