#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
import Testing

// The exported contract checked by tools nobody here wrote: every OpenAPI document validates with
// openapi-spec-validator, every JSON Schema is valid Draft 2020-12 (jsonschema's meta-schema check),
// and payloads encoded as a server sends them validate against their schemas.

private struct Reading: Codable, Sendable {
    enum Unit: String, Codable, CaseIterable, Sendable { case celsius, fahrenheit }
    struct Sensor: Codable, Sendable { let id: UUID; let location: URL? }
    let sensor: Sensor
    let unit: Unit
    let values: [Double]
    let takenAt: Date
    let note: String?
    let labels: [String: String]
    let raw: Data
}

private struct Tree: Codable, Sendable {
    let name: String
    let children: [Tree]
}

private struct ListReadings: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "stations/{station}/readings") }
    let station: String
    let since: Date?
    let units: [Reading.Unit]
    @HeaderField("X-Request-ID") var requestID: String? = nil
    typealias ReturnPayloadType = [Reading]
}

private struct RecordReading: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "stations/{station}/readings", version: 2) }
    let station: String
    let reading: Reading
    typealias ReturnPayloadType = EmptyPayload
}

private struct UploadLog: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "stations/{station}/logs", body: .multipart) }
    let station: String
    let log: MultipartFile
    let comment: String?
    static var requiresAuthorization: Bool { false }
    typealias ReturnPayloadType = String
}

private struct Feed: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "feed") }
    typealias ReturnPayloadType = ServerSentEvents<Reading>
}

@Suite struct ContractTests {
    @Test func `exported documents and schemas pass openapi-spec-validator and jsonschema, and payloads match them`() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("endpointkit-contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let server = APIServer(
            origin: URL(string: "https://weather.example.com")!,
            middlewares: [HTTPBearerAuthorization(token: "t"), APIKeyAuthorization(header: "X-API-Key", value: "k")])
        let document = try OpenAPIDocument(
            title: "Weather", version: "1.0", servers: [server],
            endpoints: [ListReadings.self, RecordReading.self, UploadLog.self, Feed.self])
        try document.yaml().write(to: folder.appendingPathComponent("weather.yaml"))
        try document.json().write(to: folder.appendingPathComponent("weather.json"))

        let reading = Reading(
            sensor: .init(id: UUID(), location: nil), unit: .celsius, values: [1.5, -3], takenAt: Date(timeIntervalSince1970: 1_700_000_000.25),
            note: nil, labels: ["site": "roof"], raw: Data([1, 2, 3]))
        let samples: [(String, JSONSchema, Data)] = [
            ("reading", try JSONSchema(for: Reading.self), try server.encoder.encode(reading)),
            ("tree", try JSONSchema(for: Tree.self), try server.encoder.encode(Tree(name: "a", children: [Tree(name: "b", children: [])]))),
            ("readings", try JSONSchema(for: [Reading].self), try server.encoder.encode([reading])),
        ]
        for (name, schema, payload) in samples {
            try schema.json(prettyPrinted: true).write(to: folder.appendingPathComponent("\(name).schema.json"))
            try payload.write(to: folder.appendingPathComponent("\(name).payload.json"))
        }
        // A payload that breaks its schema must be refused, or the check proves nothing.
        try Data(#"{"name": "a", "children": [{"name": 7, "children": []}]}"#.utf8)
            .write(to: folder.appendingPathComponent("tree.invalid.json"))

        // Tool definitions in every format: their argument schemas are JSON Schema too.
        // (RecordReading's labels are a dictionary, which OpenAI's strict mode cannot describe.)
        for format in [ToolFormat.openAI, .openAIChat, .anthropic, .mcp] {
            let endpoints: [any (Endpoint & Decodable).Type] = format == .anthropic || format == .mcp
                ? [ListReadings.self, RecordReading.self] : [ListReadings.self]
            let definitions = try EndpointTools(endpoints, on: server).definitions(for: format)
            try Data(("[" + definitions.map { String(decoding: $0.json.json, as: UTF8.self) }.joined(separator: ",") + "]").utf8)
                .write(to: folder.appendingPathComponent("tools-\(format).json"))
        }
        try StructuredOutput(Tree.self).schema.json.write(to: folder.appendingPathComponent("structured.json"))

        let script = """
            import json, pathlib, sys, yaml, jsonschema
            from openapi_spec_validator import validate
            folder = pathlib.Path(sys.argv[1])
            for name in ["weather.yaml", "weather.json"]:
                text = (folder / name).read_text()
                validate(yaml.safe_load(text) if name.endswith(".yaml") else json.loads(text))
                print("valid document", name)
            for schema_path in sorted(folder.glob("*.schema.json")):
                schema = json.loads(schema_path.read_text())
                jsonschema.Draft202012Validator.check_schema(schema)
                stem = schema_path.name[: -len(".schema.json")]
                jsonschema.Draft202012Validator(schema).validate(json.loads((folder / f"{stem}.payload.json").read_text()))
                print("valid schema and payload", stem)
            tree = json.loads((folder / "tree.schema.json").read_text())
            errors = list(jsonschema.Draft202012Validator(tree).iter_errors(json.loads((folder / "tree.invalid.json").read_text())))
            assert len(errors) == 1 and list(errors[0].absolute_path) == ["children", 0, "name"], errors
            print("invalid payload refused at", list(errors[0].absolute_path))
            checked = 0
            for path in sorted(folder.glob("tools-*.json")):
                for tool in json.loads(path.read_text()):
                    schema = tool.get("parameters") or tool.get("input_schema") or tool.get("inputSchema") or tool["function"]["parameters"]
                    jsonschema.Draft202012Validator.check_schema(schema)
                    checked += 1
            structured = json.loads((folder / "structured.json").read_text())
            jsonschema.Draft202012Validator.check_schema(structured)
            jsonschema.Draft202012Validator(structured).validate(json.loads((folder / "tree.payload.json").read_text()))
            assert list(jsonschema.Draft202012Validator(structured).iter_errors({"name": "a", "children": [], "extra": 1}))
            print("valid tool schemas", checked)
            """
        let (status, output) = try await onOwnThread { PythonEnvironment.run(try PythonEnvironment.interpreter(), ["-c", script, folder.path]) }
        #expect(status == 0, "\(output)")
        #expect(output.contains("valid document weather.yaml"))
        #expect(output.contains("valid schema and payload tree"))
        #expect(output.contains("invalid payload refused at ['children', 0, 'name']"))
        #expect(output.contains("valid tool schemas 6"))
    }
}
#endif
