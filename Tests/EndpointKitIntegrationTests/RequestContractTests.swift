#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import Foundation
import Testing

// Requests EndpointKit really sends, captured by the loopback server, validated against the
// exported OpenAPI document by openapi-core (a request validator nobody here wrote), for every
// placement and body format.

/// What the loopback server's echo saw, bytes included.
private struct Captured: Decodable, Sendable {
    let method: String
    let target: String
    let headers: [String: String]
    let bodyBase64: String
    enum CodingKeys: String, CodingKey { case method, target, headers, bodyBase64 = "body_base64" }
}

private struct Inner: Codable, Sendable { let minStars: Int }
private struct Filter: Codable, Sendable { let inner: Inner; let labels: [String]; let owner: String? }
private struct Flat: Codable, Sendable { let language: String; let archived: Bool? }
private struct Line: Codable, Sendable { let sku: String; let quantity: UInt8; let price: Decimal }

private struct GetItem: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "items/{itemId}") }
    let itemId: UUID
    let q: String
    let tags: [String]
    let since: Date?
    let limit: Int
    let ratio: Double
    let filter: Filter
    let flat: Flat
    @HeaderField("X-Trace") var trace: String? = nil
    typealias ReturnPayloadType = Captured
}

private struct PlaceOrder: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "orders", version: 2) }
    let customer: String
    let lines: [Line]
    let placedAt: Date
    let note: String?
    let id: UUID
    @QueryItem var dryRun: Bool
    typealias ReturnPayloadType = Captured
}

private struct ReplaceTags: Endpoint, Decodable {
    var endpoint: Restful { Restful(.put, "items/{itemId}/tags") }
    let itemId: Int
    @Body var tags: [String]
    typealias ReturnPayloadType = Captured
}

private struct SignUp: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "sign-up", body: .form) }
    let email: String
    let topics: [String]
    let age: Int?
    static var requiresAuthorization: Bool { false }
    typealias ReturnPayloadType = Captured
}

private struct Attach: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "items/{itemId}/attachments", body: .multipart) }
    let itemId: Int
    let file: MultipartFile
    let caption: String
    typealias ReturnPayloadType = Captured
}

private struct PutBlob: Endpoint, Decodable {
    var endpoint: Restful { Restful(.put, "blobs/{name}", body: .raw(contentType: "application/octet-stream")) }
    let name: String
    @Body var bytes: Data
    typealias ReturnPayloadType = Captured
}

private struct RemoveItem: Endpoint, Decodable {
    var endpoint: Restful { Restful(.delete, "items/{itemId}") }
    let itemId: Int
    let reason: String?
    typealias ReturnPayloadType = Captured
}

@Suite struct RequestContractTests {
    @Test func `requests EndpointKit sends validate against its own OpenAPI document with openapi-core`() async throws {
        let loopback = try await LoopbackServer.ready()
        var server = loopback.server(pathPrefix: "contract")
        server.middlewares = [HTTPBearerAuthorization(token: "t0k3n")]
        let document = try OpenAPIDocument(
            title: "Requests", version: "1", servers: [server],
            endpoints: [GetItem.self, PlaceOrder.self, ReplaceTags.self, SignUp.self, Attach.self, PutBlob.self, RemoveItem.self])

        let id = UUID()
        let line = Line(sku: "a-1", quantity: 255, price: Decimal(string: "19.99")!)
        let filter = Filter(inner: Inner(minStars: 5), labels: ["bug", "good first issue"], owner: nil)
        var calls: [(String, Captured)] = []
        func call<E: Endpoint>(_ name: String, _ endpoint: E) async throws where E.ReturnPayloadType == Captured {
            calls.append((name, try await endpoint.call(on: server)))
        }
        try await call("get, every placement", GetItem(
            itemId: id, q: "swift nio", tags: ["a", "b"], since: Date(timeIntervalSince1970: 1_714_566_600), limit: 20, ratio: 0.5,
            filter: filter, flat: Flat(language: "swift", archived: true), trace: "abc"))
        try await call("get, empty and absent values", GetItem(
            itemId: id, q: "", tags: [], since: nil, limit: -1, ratio: -1e300,
            filter: Filter(inner: Inner(minStars: 0), labels: [], owner: "ünïcode & co"), flat: Flat(language: "", archived: nil)))
        try await call("post, json body and a query item", PlaceOrder(
            customer: "Zoë", lines: [line, line], placedAt: Date(timeIntervalSince1970: 0), note: nil, id: id, dryRun: true))
        try await call("put, whole body", ReplaceTags(itemId: 7, tags: ["x", "y"]))
        try await call("put, whole body, empty list", ReplaceTags(itemId: 7, tags: []))
        try await call("post, form", SignUp(email: "a+b@example.com", topics: ["news", "offers"], age: 41))
        try await call("post, form, absent", SignUp(email: "a@example.com", topics: [], age: nil))
        try await call("post, multipart", Attach(itemId: 3, file: MultipartFile(Data([0, 1, 2, 255, 254]), filename: "bytes.bin"), caption: "raw bytes"))
        try await call("put, raw", PutBlob(name: "blob-1", bytes: Data((0..<256).map { UInt8($0) })))
        try await call("delete, query", RemoveItem(itemId: 9, reason: "duplicate"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("endpointkit-requests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try document.json().write(to: folder.appendingPathComponent("document.json"))
        var captured = calls.map { name, request -> [String: Any] in
            ["name": name, "method": request.method, "target": request.target, "headers": request.headers, "body": request.bodyBase64]
        }
        // Controls: requests that break the document must be refused, or the check proves nothing.
        var wrongType = captured[0]
        wrongType["name"] = "control: limit is not an integer"
        wrongType["target"] = (wrongType["target"] as! String).replacingOccurrences(of: "limit=20", with: "limit=twenty")
        var missing = captured[2]
        missing["name"] = "control: the body lacks customer"
        missing["body"] = Data(#"{"lines":[],"placed_at":"1970-01-01T00:00:00Z","id":"00000000-0000-0000-0000-000000000000"}"#.utf8).base64EncodedString()
        captured += [wrongType, missing]
        try JSONSerialization.data(withJSONObject: captured).write(to: folder.appendingPathComponent("requests.json"))

        let script = """
            import base64, json, sys, urllib.parse
            from openapi_core import OpenAPI
            from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest
            from werkzeug.test import EnvironBuilder
            from werkzeug.wrappers import Request
            folder, origin = sys.argv[1], sys.argv[2]
            api = OpenAPI.from_dict(json.load(open(folder + "/document.json")))
            results = []
            for item in json.load(open(folder + "/requests.json")):
                path, _, query = item["target"].partition("?")
                environ = EnvironBuilder(
                    base_url=origin, path=urllib.parse.unquote(path), query_string=query, method=item["method"],
                    headers=list(item["headers"].items()), data=base64.b64decode(item["body"])).get_environ()
                try:
                    api.validate_request(WerkzeugOpenAPIRequest(Request(environ)))
                    results.append([item["name"], "valid"])
                except Exception as error:
                    causes = []
                    while error is not None:
                        causes.append(f"{type(error).__name__}: {error}")
                        error = error.__cause__ or (error.schema_errors[0] if getattr(error, "schema_errors", None) else None)
                    results.append([item["name"], " <- ".join(causes)])
            print(json.dumps(results))
            """
        let origin = loopback.origin.absoluteString
        let (status, output) = try await onOwnThread { PythonEnvironment.run(try PythonEnvironment.interpreter(), ["-c", script, folder.path, origin]) }
        #expect(status == 0, "\(output)")
        let last = try #require(output.split(separator: "\n").last.map(String.init), "\(output)")
        let results = try #require((try? JSONSerialization.jsonObject(with: Data(last.utf8))) as? [[String]], "\(output)")
        #expect(results.count == calls.count + 2)
        for result in results where !result[0].hasPrefix("control") {
            #expect(result[1] == "valid", "\(result[0]): \(result[1])")
        }
        for result in results where result[0].hasPrefix("control") {
            #expect(result[1] != "valid", "\(result[0]) was accepted")
        }
    }
}
#endif
