#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0 or 3.1 document, YAML or JSON, as OpenAPI 3.1.
///
/// A lenient pre-pass first repairs the defects real documents ship with, and reports each one:
/// - integer bounds written as floats (`maximum: 100.0` on an `integer`), which strict readers refuse;
/// - 3.0's boolean `exclusiveMinimum: true` in a 3.1 document, where the bound itself is the value;
/// - a missing `info.version`.
///
/// A reference to another file is refused: bundle the document first.
///
/// ```swift
/// let loaded = try DocumentLoader.load(Data(contentsOf: url))
/// loaded.repairs.forEach { print("repaired \($0)") }
/// ```
public enum DocumentLoader {
    /// The document as 3.1, and what was repaired on the way.
    public struct Loaded {
        /// The document, as OpenAPI 3.1, its maps in document order.
        ///
        /// The generator reads ``tree`` only. A JSON document was checked with Foundation's JSON
        /// decoder, whose maps come in no particular order, so its document is decoded again from
        /// the tree on first use, in order (and kept).
        public var document: OpenAPIKit.OpenAPI.Document { decoded.value }
        /// What the pre-pass repaired, in document order.
        public let repairs: [Repair]
        /// The version the document was written in, such as `3.0.3`.
        public let sourceVersion: String
        /// The 3.1 document as a tree, keys in document order: what the generator reads.
        let tree: Node
        let decoded: DecodedOnce

        init(document: OpenAPIKit.OpenAPI.Document, inOrder: Bool = true, repairs: [Repair], sourceVersion: String, tree: Node) {
            self.repairs = repairs
            self.sourceVersion = sourceVersion
            self.tree = tree
            decoded = DecodedOnce(document, inOrder: inOrder, tree: tree)
        }
    }

    /// The document of a ``Loaded``, decoded from its tree when first asked for.
    final class DecodedOnce: @unchecked Sendable {
        // `lock` guards `document` and `inOrder`; `tree` is set once.
        private let lock = NSLock()
        private var document: OpenAPIKit.OpenAPI.Document
        private var inOrder: Bool
        private let tree: Node

        init(_ document: OpenAPIKit.OpenAPI.Document, inOrder: Bool, tree: Node) {
            self.document = document
            self.inOrder = inOrder
            self.tree = tree
        }

        var value: OpenAPIKit.OpenAPI.Document {
            lock.lock()
            defer { lock.unlock() }
            if !inOrder {
                // Should Yams refuse what the JSON decoder read, the unordered document stays.
                if let ordered = try? YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: Yams.serialize(node: tree)) {
                    document = ordered
                }
                inOrder = true
            }
            return document
        }
    }

    /// Reads `data` (YAML or JSON).
    ///
    /// - Throws: ``GenerationError`` naming the JSON path and the fix: not OpenAPI 3.0 or 3.1, a
    ///   reference to another file, or a document OpenAPIKit cannot read even after the repairs.
    public static func load(_ data: Data) throws -> Loaded {
        let text = String(decoding: data, as: UTF8.self)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw GenerationError(path: "#", problem: "the document is empty", fix: "Pass an OpenAPI document in YAML or JSON")
            }
            root = node
        } catch let error as GenerationError {
            throw error
        } catch {
            throw GenerationError(path: "#", problem: "the document is neither YAML nor JSON (\(error))", fix: "Check its syntax")
        }
        guard let version = root["openapi"]?.string else {
            throw GenerationError(path: "#/openapi", problem: "there is no openapi version", fix: "Pass an OpenAPI 3.0 or 3.1 document (Swagger 2.0 must be converted first)")
        }
        let is30 = version.hasPrefix("3.0")
        guard is30 || version.hasPrefix("3.1") else {
            throw GenerationError(path: "#/openapi", problem: "version \(version) is not 3.0 or 3.1", fix: "Convert the document to OpenAPI 3.1")
        }
        var repairs: [Repair] = []
        let repaired = try repair(root, path: "#", is30: is30, repairs: &repairs)
        do {
            if is30 {
                let document = try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: try Yams.serialize(node: repaired))
                    .convert(to: .v3_1_0)
                // The converted document, written again, is the tree: 3.0's `nullable` and
                // boolean bounds read as 3.1's. Yams keeps OpenAPIKit's key order.
                let converted = try Yams.compose(yaml: try YAMLEncoder().encode(document)) ?? repaired
                return Loaded(document: document, repairs: repairs, sourceVersion: version, tree: converted)
            }
            // A 3.1 document in JSON is checked by Foundation's JSON decoder, from its own bytes
            // when nothing was repaired: Yams' decoder reads every scalar through YAML's tag
            // resolution, which made reading Prefect's 550 KB document half of the generation
            // time. The generator reads the tree; the decoded document's maps are out of order, so
            // `Loaded.document` decodes it again, in order, if anyone asks. The JSON decoder is strict where
            // Yams' is lenient (a number or `false` where OpenAPI wants a string, as in
            // `"version": 1` or an enum of strings holding `false`): what it refuses is read the
            // lenient way, as before.
            if isJSON(data), let checked = try? JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: repairs.isEmpty ? data : JSONText.data(of: repaired)) {
                return Loaded(document: checked, inOrder: false, repairs: repairs, sourceVersion: version, tree: repaired)
            }
            let document = try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: try Yams.serialize(node: repaired))
            return Loaded(document: document, repairs: repairs, sourceVersion: version, tree: repaired)
        } catch let error as GenerationError {
            throw error
        } catch {
            throw GenerationError(path: "#", problem: "the document is not valid OpenAPI \(version): \(error)", fix: "Validate it (openapi-spec-validator) and fix what it reports")
        }
    }

    /// Whether `data` is a JSON document: its first character other than white space opens an
    /// object (a YAML document that is a mapping starts with a key, or with `---`).
    static func isJSON(_ data: Data) -> Bool {
        data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    // MARK: - The lenient pre-pass

    private static func repair(_ node: Node, path: String, is30: Bool, repairs: inout [Repair]) throws -> Node {
        switch node {
        case .mapping(var mapping):
            if path == "#", let info = mapping["info"], info["version"] == nil, case .mapping(var infoMapping) = info {
                infoMapping["version"] = Node("0.0.0", Tag(.str), .doubleQuoted)
                mapping["info"] = .mapping(infoMapping)
                repairs.append(Repair(path: "#/info/version", change: "missing: set to \"0.0.0\""))
            }
            if let reference = mapping["$ref"]?.string, !reference.hasPrefix("#") {
                throw GenerationError(
                    path: path, problem: "the reference \"\(reference)\" points into another file",
                    fix: "Bundle the document into one file first (for example with `redocly bundle`)")
            }
            if isIntegerSchema(mapping) {
                for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] {
                    guard let scalar = mapping[key]?.scalar, let (value, change) = integerBound(scalar.string, key: key) else { continue }
                    mapping[key] = value.map { Node($0, Tag(.int)) }
                    repairs.append(Repair(path: path + "/" + key, change: change))
                }
            }
            if !is30 {
                for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
                    guard let value = mapping[flag]?.bool else { continue }
                    if value, let limit = mapping[bound] {
                        mapping[flag] = limit
                        mapping[bound] = nil
                        repairs.append(Repair(path: path + "/" + flag, change: "3.0's \(flag): true in a 3.1 document: read as \(flag): \(limit.string ?? "")"))
                    } else {
                        mapping[flag] = nil
                        repairs.append(Repair(path: path + "/" + flag, change: "3.0's \(flag): \(value) in a 3.1 document: \(value ? "no \(bound) to make exclusive, dropped" : "dropped")"))
                    }
                }
            }
            var result = Node.Mapping([])
            for (key, value) in mapping {
                let name = key.string ?? ""
                // An extension's value and an example are data, not OpenAPI: a `$ref` or a
                // bound inside one means what its owner says (Cohere's `x-fern-examples` refer
                // to snippet files), so neither is refused nor repaired. In a map of names (a
                // property called `example`) the key is a name, not a keyword.
                if name.hasPrefix("x-") || name == "example", !namesKeys.contains(path.lastComponent) {
                    result[key] = value
                    continue
                }
                result[key] = try repair(value, path: path + "/" + pointerEscaped(name), is30: is30, repairs: &repairs)
            }
            return .mapping(result)
        case .sequence(let sequence):
            var result = Node.Sequence([])
            for (index, element) in sequence.enumerated() {
                result.append(try repair(element, path: path + "/\(index)", is30: is30, repairs: &repairs))
            }
            return .sequence(result)
        default:
            return node
        }
    }

    /// The keys whose values are maps of names the document chose, where `example` or `x-…` is
    /// a name rather than a keyword.
    private static let namesKeys: Set<Substring> = [
        "properties", "patternProperties", "$defs", "definitions", "schemas", "responses", "parameters",
        "examples", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems",
        "paths", "webhooks", "content", "encoding", "variables", "mapping", "dependentSchemas",
    ]

    /// An integer schema's bound as OpenAPIKit reads one (an `Int64`), and what was changed; `nil`
    /// when `text` already is one, or is no number at all (left for OpenAPIKit to name).
    ///
    /// A float with no fraction is read as the integer; one with a fraction is rounded inward, which
    /// allows the same integers (`minimum: 0.5` is `1`); a bound past `Int64`, as a float (`2^63`,
    /// `1e400`) or an integer literal (`9223372036854776000`), is clamped to `Int64`'s range, which
    /// every Swift integer type the generator writes lies within or is checked by anyway (`UInt64`
    /// by its own range). A `multipleOf` that is not a positive integer is dropped.
    static func integerBound(_ text: String, key: String) -> (value: String?, change: String)? {
        let isFloat = text.contains { ".eE".contains($0) } || text.lowercased().contains("inf") || text.lowercased().contains("nan")
        if !isFloat, Int64(text) != nil { return nil }
        // YAML's own spellings of the special floats (`.nan`, `-.inf`) besides Swift's.
        let yamlSpecial: [String: Double] = [".nan": .nan, ".inf": .infinity, "+.inf": .infinity, "-.inf": -.infinity]
        guard var value = yamlSpecial[text.lowercased()] ?? Double(text) else { return nil }
        let bound = "the integer bound \(text)"
        if value.isNaN { return (nil, "\(bound) is not a number: dropped") }
        if key == "multipleOf" {
            guard value > 0, value.rounded() == value, value < 9.223372036854775808e18 else { return (nil, "\(bound) is not a positive integer an integer can be a multiple of: dropped") }
            return (String(Int64(value)), "\(bound) was written as a float: read as \(Int64(value))")
        }
        var change = isFloat ? "was written as a float" : "is past Int64"
        if value.rounded() != value {
            // Inward: the same integers pass (`x >= 0.5` is `x >= 1`, `x < 2.5` is `x < 3`).
            value = key == "minimum" || key == "exclusiveMaximum" ? value.rounded(.up) : value.rounded(.down)
            change = "has a fraction, which no integer has"
        }
        if value >= 9.223372036854775808e18 { return (String(Int64.max), "\(bound) \(isFloat ? "is past Int64" : change): clamped to \(Int64.max)") }
        if value < -9.223372036854775808e18 { return (String(Int64.min), "\(bound) \(isFloat ? "is past Int64" : change): clamped to \(Int64.min)") }
        return (String(Int64(value)), "\(bound) \(change): read as \(Int64(value))")
    }

    private static func isIntegerSchema(_ mapping: Node.Mapping) -> Bool {
        switch mapping["type"] {
        case .scalar(let scalar)?: return scalar.string == "integer"
        case .sequence(let types)?: return types.contains { $0.string == "integer" }
        default: return false
        }
    }

    /// A name as a JSON pointer segment (RFC 6901): `/` as `~1`, `~` as `~0`.
    static func pointerEscaped(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

private extension String {
    /// The last segment of a JSON path (`properties` in `#/components/schemas/A/properties`).
    var lastComponent: Substring { self[(lastIndex(of: "/").map(index(after:)) ?? startIndex)...] }
}
#endif
