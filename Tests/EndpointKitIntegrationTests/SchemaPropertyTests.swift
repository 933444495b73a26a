#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import Foundation
import Testing

// Property tests of the exported schemas, against tools nobody here wrote: instances that
// hypothesis-jsonschema generates from each schema must decode with the real type, and values the
// real encoder writes (edge values, Unicode, extremes) must validate with jsonschema (Draft 2020-12,
// format checks on).

private enum Mood: String, Codable, CaseIterable, Sendable { case calm, loud, 🙂 = "smile" }
private enum Level: Int, Codable, CaseIterable, Sendable { case low = 1, high = 10 }
private enum Color: String, Codable, CaseIterable, CodingKeyRepresentable, Sendable { case red, green }

private struct Numbers: Codable, Sendable {
    let int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
    let uint8: UInt8, uint16: UInt16, uint32: UInt32
    let float: Float, double: Double, decimal: Decimal
}

private struct Texts: Codable, Sendable {
    let text: String
    let optional: String?
    let url: URL
    let id: UUID
    let at: Date
    let bytes: Data
    let mood: Mood
    let level: Level
}

private struct Collections: Codable, Sendable {
    let list: [Int]
    let set: Set<String>
    let byName: [String: Double]
    let byNumber: [Int: String]
    let byColor: [Color: Bool]
    let grid: [[Int8]]
    let maybe: [String?]
}

private struct Tree: Codable, Sendable {
    let name: String
    let children: [Tree]
    let parent: String?
}

/// A `kind` that decides which other key is read.
private struct Shape: Codable, Sendable {
    enum Kind: String, Codable, CaseIterable { case circle, square, point }
    let kind: Kind
    var radius: Double?
    var side: Float?
    enum CodingKeys: String, CodingKey { case kind, radius, side }
    init(kind: Kind, radius: Double? = nil, side: Float? = nil) {
        self.kind = kind
        self.radius = radius
        self.side = side
    }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        switch kind {
        case .circle: radius = try container.decode(Double.self, forKey: .radius)
        case .square: side = try container.decode(Float.self, forKey: .side)
        case .point: break
        }
    }
}

/// Described by hand, as the contracts article's `Reward` is.
private enum Reward: Codable, Sendable, CustomJSONSchema {
    case cheers(count: Int)
    case badge(name: String)
    static var jsonSchema: JSONSchema {
        .oneOf([
            .object(["cheers": .object(["count": .integer(Int.self)], required: ["count"])], required: ["cheers"], additionalProperties: false),
            .object(["badge": .object(["name": .string()], required: ["name"])], required: ["badge"], additionalProperties: false),
        ])
    }
    static var schemaExample: Reward { .cheers(count: 1) }
}

private struct Everything: Codable, Sendable {
    let numbers: Numbers
    let texts: Texts
    let collections: Collections
    let shapes: [Shape]
    let reward: Reward
    let nullable: Nullable<Int>?
}

/// One type of the zoo: its schema, a decoder for instances, and values to encode.
private struct Specimen {
    let name: String
    let schema: JSONSchema
    let decodes: (Data) -> String?   // nil when it decodes, else why not
    let encoded: [Data]

    init<T: Codable>(_ name: String, _ type: T.Type, values: [T]) throws {
        self.name = name
        schema = try JSONSchema(for: type)
        decodes = { data in
            do {
                _ = try APIServer.makeDecoder().decode(T.self, from: data)
                return nil
            } catch {
                return "\(error)"
            }
        }
        encoded = try values.map { try APIServer.makeEncoder().encode($0) }
    }
}

@Suite struct SchemaPropertyTests {
    static let instancesPerSchema = 100

    fileprivate static func specimens() throws -> [Specimen] {
        let extremes = Numbers(
            int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint8: .max, uint16: 0, uint32: .max,
            float: .greatestFiniteMagnitude, double: -.greatestFiniteMagnitude, decimal: Decimal(string: "-99999999999999999999999999999999999999")!)
        let tiny = Numbers(
            int: 0, int8: -1, int16: 0, int32: 1, int64: -1, uint8: 0, uint16: .max, uint32: 0,
            float: .leastNonzeroMagnitude, double: .leastNonzeroMagnitude, decimal: Decimal(string: "1e-90")!)
        let zero = Numbers(int: 0, int8: 0, int16: 0, int32: 0, int64: 0, uint8: 0, uint16: 0, uint32: 0, float: 0, double: -0.0, decimal: 0)
        let texts = [
            Texts(text: "", optional: nil, url: URL(string: "https://example.com/a%20b?x=1#f")!, id: UUID(), at: Date(timeIntervalSince1970: -62_135_596_800),
                  bytes: Data(), mood: .🙂, level: .high),
            Texts(text: "Zoë 🧪 \u{0} \"quoted\" \\ \n\t 中文 \u{1F1EB}\u{1F1F7}", optional: "", url: URL(string: "urn:isbn:0451450523")!,
                  id: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)), at: Date(timeIntervalSince1970: 253_402_300_799),
                  bytes: Data((0...255).map { UInt8($0) }), mood: .calm, level: .low),
        ]
        let collections = [
            Collections(list: [], set: [], byName: [:], byNumber: [:], byColor: [:], grid: [], maybe: []),
            Collections(list: [.min, .max], set: ["", "a", "é"], byName: ["": 1e-300, "x y": -2.5], byNumber: [-1: "minus", 0: "", Int.max: "max"],
                        byColor: [.red: true, .green: false], grid: [[], [Int8.min, Int8.max]], maybe: [nil, "", "a"]),
        ]
        let tree = Tree(name: "root", children: [Tree(name: "a", children: [Tree(name: "b", children: [], parent: "a")], parent: "root")], parent: nil)
        let shapes = [Shape(kind: .circle, radius: 2.5), Shape(kind: .square, side: .leastNonzeroMagnitude), Shape(kind: .point)]
        return [
            try Specimen("numbers", Numbers.self, values: [extremes, tiny, zero]),
            try Specimen("texts", Texts.self, values: texts),
            try Specimen("collections", Collections.self, values: collections),
            try Specimen("tree", Tree.self, values: [tree]),
            try Specimen("shape", Shape.self, values: shapes),
            try Specimen("reward", Reward.self, values: [.cheers(count: .max), .badge(name: "")]),
            try Specimen("everything", Everything.self, values: [
                Everything(numbers: extremes, texts: texts[1], collections: collections[1], shapes: shapes, reward: .badge(name: "b"), nullable: .null),
                Everything(numbers: zero, texts: texts[0], collections: collections[0], shapes: [], reward: .cheers(count: .min), nullable: .value(3)),
                Everything(numbers: tiny, texts: texts[0], collections: collections[0], shapes: [], reward: .cheers(count: 0), nullable: nil),
            ]),
        ]
    }

    @Test func `instances generated from every schema decode, and every encoded value validates`() async throws {
        let specimens = try Self.specimens()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("endpointkit-properties-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for specimen in specimens {
            try specimen.schema.json().write(to: folder.appendingPathComponent("\(specimen.name).schema.json"))
            let values = "[" + specimen.encoded.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "]"
            try Data(values.utf8).write(to: folder.appendingPathComponent("\(specimen.name).values.json"))
        }
        // Generation is single-threaded Python, and one schema (`everything`) took 135 s of it: as
        // one process it was most of the suite's time (265 s of 265 s in CI). So one process runs
        // per core, at most four (each holds hypothesis, about 150 MB), each generating its part of
        // every schema's instances from a fixed seed of its own (the same instances every run on a
        // machine); the first also checks the encoded values. Processes, not Python's
        // multiprocessing: a pool forked from Python hung at its end once in four runs.
        let script = """
            import json, pathlib, sys, time, warnings
            warnings.simplefilter("ignore")
            import jsonschema
            from hypothesis import HealthCheck, given, seed, settings
            from hypothesis_jsonschema import from_schema
            from hypothesis_jsonschema._canonicalise import HypothesisRefResolutionError
            folder, count, part, parts = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            report = {}
            for path in sorted(folder.glob("*.schema.json")):
                start = time.monotonic()
                name = path.name[: -len(".schema.json")]
                schema = json.loads(path.read_text())
                invalid = []
                if part == 0:
                    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
                    invalid = [f"{list(e.absolute_path)}: {e.message}"[:300]
                               for value in json.loads((folder / f"{name}.values.json").read_text())
                               for e in validator.iter_errors(value)]
                instances = []
                @seed(part)
                @settings(max_examples=-(-count // parts), derandomize=False, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck))
                @given(from_schema(schema))
                def collect(value):
                    instances.append(value)
                try:
                    collect()
                except HypothesisRefResolutionError:
                    instances = None  # hypothesis-jsonschema cannot generate recursive schemas
                with open(folder / f"{name}.instances.{part}.jsonl", "w") as out:
                    for value in instances or []:
                        out.write(json.dumps(value, ensure_ascii=False) + "\\n")
                report[name] = {"instances": -1 if instances is None else len(instances), "invalid": invalid,
                                "seconds": round(time.monotonic() - start, 1)}
            print(json.dumps(report))
            """
        let parts = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let python = try PythonEnvironment.interpreter()
        let outputs = try await withThrowingTaskGroup(of: (Int32, String).self) { group in
            for part in 0..<parts {
                let arguments = ["-c", script, folder.path, String(Self.instancesPerSchema), String(part), String(parts)]
                group.addTask { try await onOwnThread { PythonEnvironment.run(python, arguments) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let reports = try outputs.map { status, output in
            #expect(status == 0, "\(output)")
            let last = try #require(output.split(separator: "\n").last.map(String.init), "\(output)")
            return try #require((try? JSONSerialization.jsonObject(with: Data(last.utf8))) as? [String: [String: Any]], "\(output)")
        }
        var generated = 0
        for specimen in specimens {
            let entries = reports.compactMap { $0[specimen.name] }
            #expect(entries.count == parts, "\(specimen.name) missing from a part's report")
            let invalid = entries.flatMap { $0["invalid"] as? [String] ?? [] }
            #expect(invalid == [], "\(specimen.name): encoded values the schema refuses: \(invalid)")
            let lines = try (0..<parts).flatMap { part in
                try String(contentsOf: folder.appendingPathComponent("\(specimen.name).instances.\(part).jsonl"), encoding: .utf8)
                    .split(separator: "\n")
            }
            if entries.contains(where: { $0["instances"] as? Int == -1 }) {
                #expect(specimen.name == "tree", "hypothesis-jsonschema could not generate \(specimen.name)")  // recursive
                continue
            }
            #expect(lines.count >= 20, "\(specimen.name): only \(lines.count) instances")
            var failures: [String] = []
            for line in lines {
                if let problem = specimen.decodes(Data(line.utf8)) { failures.append("\(line.prefix(300)) → \(problem.prefix(300))") }
            }
            generated += lines.count
            #expect(failures.isEmpty, "\(specimen.name): \(failures.count) of \(lines.count) generated instances do not decode, e.g. \(failures.prefix(3))")
        }
        #expect(generated > 500)
        let seconds = reports.flatMap { $0.mapValues { $0["seconds"] as? Double ?? 0 } }.sorted { $0.value > $1.value }.prefix(3)
        print("schema property test: \(generated) generated instances decoded, \(specimens.map(\.encoded.count).reduce(0, +)) encoded values validated; slowest schemas: \(seconds.map { "\($0.key) \($0.value) s" }.joined(separator: ", "))")
    }
}
#endif
