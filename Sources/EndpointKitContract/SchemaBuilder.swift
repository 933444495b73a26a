import EndpointKit
import Foundation

/// Derives JSON Schemas from `Decodable` conformances by running them against ``SchemaProbe``, a
/// decoder that hands out placeholder values and records what each type asks for.
///
/// Types decoded from a keyed container (structs and classes) become named definitions, referred
/// to by `$ref`, so nested and recursive types are described once. Standard types (strings,
/// numbers, dates, URLs, collections, optionals) are recognised before their own decoding runs.
package final class SchemaBuilder {
    /// Where `$ref`s point: `#/$defs/` for a JSON Schema, `#/components/schemas/` for OpenAPI.
    let referencePrefix: String
    let keyStrategy: JSONEncoder.KeyEncodingStrategy
    private let dateStrategy: JSONEncoder.DateEncodingStrategy
    private let dataStrategy: JSONEncoder.DataEncodingStrategy

    /// Named definitions in the order they were completed.
    package private(set) var definitions: [JSONValue.Member] = []
    private var names: [ObjectIdentifier: String] = [:]
    private var inProgress: Set<ObjectIdentifier> = []
    /// Types referred to while their own decoding was still running (recursive types).
    package private(set) var referencedWhileInProgress: Set<String> = []
    /// The probe records of keyed types, for the endpoint analysis.
    private(set) var records: [ObjectIdentifier: ProbeRecord] = [:]
    /// Placeholder values of the types with a completed definition.
    private var completed: [ObjectIdentifier: Any] = [:]
    /// What the probe of the outermost type being described has spent (see ``spend(at:)``).
    private var steps = 0
    /// The types whose `init(from:)` is running, outermost first.
    private var probing: [Any.Type] = []
    /// Whether keys must read back as they are written (see ``checkReadable(_:key:at:)``): what is
    /// decoded (payloads, tool arguments) must; an endpoint's request, which is only encoded, need not.
    package var checksReadBack = true
    /// Where the probe met an enumeration of more than one case: each may be a discriminator.
    private var enumSightings: [(path: String, depth: Int, count: Int)] = []
    /// The case the probe hands out for the enumeration at a coding path, instead of the first.
    private var caseChoice: (path: String, index: Int)?

    /// The most values and containers the probe hands out while it describes one outermost type,
    /// and the deepest coding path it follows. Real payloads stay far below; a type that reads an
    /// unkeyed container until a value it expects, or recurses through `superDecoder(forKey:)`
    /// while `contains` is true, would otherwise make the probe run until memory ran out.
    static let stepLimit = 20_000
    static let depthLimit = 64

    /// How the decoder that reads the described data turns JSON keys into coding keys, when known
    /// (a server's decoder); `nil` assumes the decoder that pairs with the encoder's strategy.
    let decodingKeys: JSONDecoder.KeyDecodingStrategy?

    package init(encoder: JSONEncoder, decoder: JSONDecoder? = nil, referencePrefix: String) {
        self.referencePrefix = referencePrefix
        decodingKeys = decoder?.keyDecodingStrategy
        keyStrategy = encoder.keyEncodingStrategy
        dateStrategy = encoder.dateEncodingStrategy
        dataStrategy = encoder.dataEncodingStrategy
    }

    /// The name a type's definition has (or will have): its name without the module, e.g.
    /// `CheerHistory.ReturnPayloadType`, with characters OpenAPI refuses in names replaced by `_`.
    package func name(of type: Any.Type) -> String {
        if let known = names[ObjectIdentifier(type)] { return known }
        let base = Self.baseName(of: type)
        var candidate = base
        var suffix = 2
        while names.values.contains(candidate) {
            candidate = "\(base)_\(suffix)"
            suffix += 1
        }
        names[ObjectIdentifier(type)] = candidate
        return candidate
    }

    /// `CheerHistory.ReturnPayloadType` for `Demo.CheerHistory.ReturnPayloadType`: the type's name
    /// without its module, with characters OpenAPI refuses in names replaced by `_`.
    package static func baseName(of type: Any.Type) -> String {
        EndpointError.operationID(of: type)  // one rule for errors, documents and tools
    }

    func reference(to type: Any.Type) -> JSONValue {
        .object(["$ref": .string(referencePrefix + name(of: type))])
    }

    /// The schema of `type` and a placeholder value of it; `nil` as the value only for a type whose
    /// own decoding is still running (a recursive reference), which only optional and collection
    /// positions can hold.
    package func probe<T: Decodable>(_ type: T.Type, at codingPath: [any CodingKey]) throws -> (value: T?, schema: JSONValue) {
        do {
            return try probeNamed(type, at: codingPath)
        } catch let missing as MissingCaseNames {
            throw Self.unnamedKeys(in: type, missing)
        }
    }

    /// ``probe(_:at:)``, whose keys without case names throw ``MissingCaseNames``.
    private func probeNamed<T: Decodable>(_ type: T.Type, at codingPath: [any CodingKey]) throws -> (value: T?, schema: JSONValue) {
        if inProgress.isEmpty { steps = 0 }  // a new outermost type: a new budget
        if let known = try standard(type, at: codingPath) { return known }
        let id = ObjectIdentifier(type)
        if let done = completed[id] { return (done as? T, reference(to: type)) }
        if inProgress.contains(id) {
            referencedWhileInProgress.insert(name(of: type))
            return (nil, reference(to: type))
        }
        inProgress.insert(id)
        defer { inProgress.remove(id) }
        let record = ProbeRecord(codingPath: codingPath)
        probing.append(type)
        defer { probing.removeLast() }
        let sightings = enumSightings.count
        let value = try decode(type, into: record)
        let branches = record.container == .keyed
            ? try self.branches(of: type, record: record, at: codingPath, sightings: enumSightings[sightings...])
            : nil
        enumSightings.removeSubrange(sightings...)
        if record.container == .keyed || referencedWhileInProgress.contains(name(of: type)) {
            records[id] = record
            var schema = try branches ?? record.schema(builder: self)
            if case .object(var members) = schema {
                members.insert(.init(key: "title", value: .string(name(of: type))), at: 0)
                schema = .object(members)
            }
            if let documented = type as? any Documented.Type {
                schema = documented.documentation.applied(to: schema, record: record)
            }
            definitions.append(.init(key: name(of: type), value: schema))
            completed[id] = value
            return (value, reference(to: type))
        }
        let schema = try record.schema(builder: self)
        return (value, schema)
    }

    /// The failure, as request encoding fails, when a `CodingKeys` enum of `type` had no case
    /// names: the schema would name a key spelled by hand (`case version = "schemaVersion"`) as a
    /// property (`schema_version`), unlike a Debug build of the same code, and a model or a client
    /// would send what the server refuses.
    package static func unnamedKeys(in type: Any.Type, _ missing: MissingCaseNames) -> EndpointError {
        EndpointError(
            kind: .schemaUnavailable, route: String(reflecting: type),
            reason: "its schema cannot name its properties as a Debug build would: \(missing)")
    }

    /// The schema of a type whose properties depend on one of its own enumeration properties (a
    /// `kind` that decides which other keys are read): one branch per case, the discriminator
    /// `const` in each, as `oneOf`. `nil` when no enumeration changes what is read.
    ///
    /// The type's `init(from:)` is run again with each other case of each such property handed
    /// out; a property whose cases all lead to the same keys is not a discriminator.
    private func branches<T: Decodable>(
        of type: T.Type, record: ProbeRecord, at codingPath: [any CodingKey],
        sightings: ArraySlice<(path: String, depth: Int, count: Int)>
    ) throws -> JSONValue? {
        for sighting in sightings where sighting.depth == codingPath.count + 1 {
            var records = [record]
            for index in 1..<sighting.count {
                let variant = ProbeRecord(codingPath: codingPath)
                caseChoice = (sighting.path, index)
                defer { caseChoice = nil }
                _ = try decode(type, into: variant, context: "with another case of its property at \(sighting.path), ")
                records.append(variant)
            }
            let shapes = records.map { $0.shape }
            guard Set(shapes).count > 1 else { continue }
            let refusal = SchemaBuilder.unavailable(type, because: "which keys it reads depends on the value of its property at \(sighting.path), and that property is not a required enumeration of strings or integers that could tell the branches apart")
            guard let key = record.properties.first(where: { $0.keyPath == sighting.path }), key.isRequired, !key.isNullable else { throw refusal }
            var options: [JSONValue] = []
            for (index, variant) in records.enumerated() {
                let branch = try variant.schema(builder: self)
                guard case .object(var members) = branch, case .object(var properties)? = branch["properties"],
                      let position = properties.firstIndex(where: { $0.key == key.wireName }),
                      case .array(let values)? = properties[position].value["enum"], index < values.count,
                      let at = members.firstIndex(where: { $0.key == "properties" }) else { throw refusal }
                properties[position].value = .object(["const": values[index]])
                members[at].value = .object(properties)
                options.append(.object(members))
            }
            return .object(["oneOf": .array(options)])
        }
        return nil
    }

    /// Runs `type`'s decoding against the probe, recording into `record`. What it throws becomes
    /// `.schemaUnavailable` naming the type; `context` says how the probe's values differed.
    private func decode<T: Decodable>(_ type: T.Type, into record: ProbeRecord, context: String = "") throws -> T {
        do {
            return try T(from: SchemaProbe(builder: self, record: record))
        } catch let error as EndpointError {
            throw error
        } catch {
            throw Self.unavailable(type, because: context + Self.describe(error))
        }
    }

    /// `schema`, or the definition its `$ref` names.
    package func resolved(_ schema: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue, reference.hasPrefix(referencePrefix) else { return schema }
        let name = String(reference.dropFirst(referencePrefix.count))
        return definitions.first { $0.key == name }?.value ?? schema
    }

    /// Whether a definition has been completed for `type`.
    package func definition(of type: Any.Type) -> JSONValue? {
        let name = name(of: type)
        return definitions.first { $0.key == name }?.value
    }

    /// Drops the definition of `type`, which is described some other way (an endpoint, by its
    /// parameters and body).
    package func removeDefinition(of type: Any.Type) {
        let name = name(of: type)
        definitions.removeAll { $0.key == name }
    }

    // MARK: - Standard types

    /// Types whose schema does not come from running their decoding: scalars with a format,
    /// collections and optionals (whose placeholder is empty, so recursion ends), enumerations,
    /// and types that describe themselves.
    private func standard<T: Decodable>(_ type: T.Type, at codingPath: [any CodingKey]) throws -> (value: T?, schema: JSONValue)? {
        if let custom = type as? any CustomJSONSchema.Type {
            return try described(custom, as: type)
        }
        if let scalar = scalar(type) {
            return (scalar.value as? T, scalar.schema)
        }
        if let enumeration = type as? any (CaseIterable & RawRepresentable & Decodable).Type,
           let cases = Self.cases(of: enumeration) {
            var schema = JSONValue.object(["title": .string(name(of: type))])
            schema["type"] = cases.values.first.map { $0.stringValue != nil ? .string("string") : .string("integer") }
            schema["enum"] = .array(cases.values)
            if let documented = type as? any Documented.Type {
                schema = documented.documentation.applied(to: schema, record: nil)
            }
            let path = CodingPathText.render(codingPath)
            if cases.all.count > 1 { enumSightings.append((path, codingPath.count, cases.all.count)) }
            let index = caseChoice?.path == path ? caseChoice?.index ?? 0 : 0
            return (cases.all[index] as? T, schema)
        }
        if let optional = type as? any SchemaOptional.Type {
            let (wrapped, schema) = try probe(any: optional.wrappedType)
            return (optional.probeValue(wrapped) as? T, Self.nullable(schema))
        }
        if let sequence = type as? any SchemaSequence.Type {
            let (_, items) = try probe(any: sequence.elementType)
            var schema = JSONValue.object(["type": .string("array"), "items": items])
            if sequence.hasUniqueElements { schema["uniqueItems"] = .bool(true) }
            return (sequence.emptyProbeValue as? T, schema)
        }
        if let dictionary = type as? any SchemaDictionary.Type {
            let (_, values) = try probe(any: dictionary.valueType)
            var schema = JSONValue.object(["type": .string("object")])
            if let names = try Self.propertyNames(of: dictionary.keyType, in: type) { schema["propertyNames"] = names }
            schema["additionalProperties"] = values
            return (dictionary.emptyProbeValue as? T, schema)
        }
        return nil
    }

    /// ``probe(_:at:)`` for a type known only as a metatype.
    package func probe(any type: any Decodable.Type) throws -> (value: Any?, schema: JSONValue) {
        let (value, schema) = try probe(type, at: [])
        return (value, schema)
    }

    private func described<T: Decodable>(_ custom: any CustomJSONSchema.Type, as type: T.Type) throws -> (value: T?, schema: JSONValue) {
        let id = ObjectIdentifier(type)
        if definition(of: type) == nil && !inProgress.contains(id) {
            inProgress.insert(id)
            defer { inProgress.remove(id) }
            var schema = try custom.jsonSchema.value(builder: self)
            if case .object(var members) = schema, schema["title"] == nil {
                members.insert(.init(key: "title", value: .string(name(of: type))), at: 0)
                schema = .object(members)
            }
            definitions.append(.init(key: name(of: type), value: schema))
        }
        return (custom.schemaExample as? T, reference(to: type))
    }

    private func scalar(_ type: Any.Type) -> (value: Any, schema: JSONValue)? {
        func integer<I: FixedWidthInteger>(_ type: I.Type, format: String?) -> (value: Any, schema: JSONValue) {
            var schema = JSONValue.object(["type": .string("integer")])
            if let format { schema["format"] = .string(format) }
            schema["minimum"] = .integer(I.min)
            // Past Int64 tools read a bound as a float (OpenAPIKit refuses 1.8446744073709552e+19
            // as an integer), so UInt64's and UInt's maximum is left to the format.
            if I.max.bitWidth <= 64, UInt64(I.max) <= UInt64(Int64.max) { schema["maximum"] = .integer(I.max) }
            return (I(1), schema)
        }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): return ("string", .object(["type": .string("string")]))
        case ObjectIdentifier(Bool.self): return (false, .object(["type": .string("boolean")]))
        case ObjectIdentifier(Int.self): return integer(Int.self, format: "int\(Int.bitWidth)")
        case ObjectIdentifier(Int8.self): return integer(Int8.self, format: nil)
        case ObjectIdentifier(Int16.self): return integer(Int16.self, format: nil)
        case ObjectIdentifier(Int32.self): return integer(Int32.self, format: "int32")
        case ObjectIdentifier(Int64.self): return integer(Int64.self, format: "int64")
        case ObjectIdentifier(UInt.self): return integer(UInt.self, format: nil)
        case ObjectIdentifier(UInt8.self): return integer(UInt8.self, format: nil)
        case ObjectIdentifier(UInt16.self): return integer(UInt16.self, format: nil)
        case ObjectIdentifier(UInt32.self): return integer(UInt32.self, format: nil)
        case ObjectIdentifier(UInt64.self): return integer(UInt64.self, format: "uint64")
        case ObjectIdentifier(Double.self): return (Double(1), Self.real(.double))
        case ObjectIdentifier(Float.self): return (Float(1), Self.real(.float))
        case ObjectIdentifier(Decimal.self): return (Decimal(1), Self.real(.decimal))
        case ObjectIdentifier(URL.self): return (URL(string: "https://example.com")!, .object(["type": .string("string"), "format": .string("uri")]))
        case ObjectIdentifier(UUID.self):
            // `format` is an annotation unless a validator is told to assert it: the pattern says it always.
            return (UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), .object([
                "type": .string("string"), "format": .string("uuid"),
                "pattern": .string("^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"),
            ]))
        case ObjectIdentifier(Date.self): return (Date(timeIntervalSince1970: 0), dateSchema)
        case ObjectIdentifier(Data.self): return (Data(), dataSchema)
        case ObjectIdentifier(EmptyPayload.self): return (EmptyPayload(), .object(["title": .string("EmptyPayload"), "description": .string("No content: any body is ignored.")]))
        case ObjectIdentifier(MultipartFile.self): return (MultipartFile(Data(), filename: "file"), Self.binary)
        case ObjectIdentifier(JSONValue.self): return (JSONValue.null, .object([:]))
        default: return nil
        }
    }

    /// Bytes that are not text (a file part, a raw body), as OpenAPI 3.1 says it: a content
    /// media type, not 3.0's `format: binary`, which a 3.1 validator reads as a string and so
    /// refuses the bytes of a real upload.
    package static let binary = JSONValue.object(["contentMediaType": .string("application/octet-stream")])

    /// The numbers a real type decodes from JSON: within its largest magnitude, and not so close
    /// to zero that it underflows (`1e-50` is not a `Float`), zero itself excepted.
    package enum Real {
        case float, double, decimal

        /// The largest magnitude, and the smallest one above zero, as JSON numbers that YAML 1.1
        /// (PyYAML) also reads as numbers: with a point and a signed exponent.
        var limits: (largest: String, smallest: String) {
            switch self {
            // As JSONEncoder writes Float's greatestFiniteMagnitude and leastNonzeroMagnitude (their
            // shortest forms, which read back as the same Float), and Double's.
            case .float: ("3.4028235e+38", "1.0e-45")
            case .double: ("1.7976931348623157e+308", "5.0e-324")
            // Foundation reads a decimal as at most 38 digits times a power of ten from -128 to
            // 127: bounds that hold for any number of digits.
            case .decimal: ("1.0e+127", "1.0e-90")
            }
        }
    }

    /// The schema of a real number type: its range, and no magnitude it would round to zero.
    package static func real(_ kind: Real) -> JSONValue {
        let (largest, smallest) = kind.limits
        var schema = JSONValue.object(["type": .string("number")])
        switch kind {
        case .float: schema["format"] = .string("float")
        case .double: schema["format"] = .string("double")
        case .decimal: break
        }
        schema["minimum"] = .number("-" + largest)
        schema["maximum"] = .number(largest)
        // The exclusion names its type: made nullable, the schema must still take null, which
        // bounds alone (they apply to numbers only) would match and so exclude.
        schema["not"] = .object([
            "type": .string("number"),
            "exclusiveMinimum": .number("-" + smallest), "exclusiveMaximum": .number(smallest),
            "not": .object(["const": .number("0")]),
        ])
        return schema
    }

    /// A date as the encoder writes it (EndpointKit's default decoder reads the same forms).
    private var dateSchema: JSONValue {
        if case .iso8601 = dateStrategy {
            // The shape RFC3339 reads; `format` (when asserted) rules out days that do not exist.
            return .object([
                "type": .string("string"), "format": .string("date-time"),
                "pattern": .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})$"),
            ])
        } else if case .secondsSince1970 = dateStrategy {
            return .object(["type": .string("number"), "description": .string("Seconds since 1970-01-01T00:00:00Z")])
        } else if case .millisecondsSince1970 = dateStrategy {
            return .object(["type": .string("number"), "description": .string("Milliseconds since 1970-01-01T00:00:00Z")])
        } else if case .deferredToDate = dateStrategy {
            return .object(["type": .string("number"), "description": .string("Seconds since 2001-01-01T00:00:00Z")])
        }
        return .object(["type": .string("string")])  // `.formatted` or `.custom`: text of the app's own format
    }

    private var dataSchema: JSONValue {
        if case .deferredToData = dataStrategy {
            return .object(["type": .string("array"), "items": .object(["type": .string("integer"), "minimum": .integer(0), "maximum": .integer(255)])])
        }
        return .object([
            "type": .string("string"), "contentEncoding": .string("base64"),
            "pattern": .string("^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"),
        ])
    }

    // MARK: - Helpers

    /// `schema` that also allows `null`.
    package static func nullable(_ schema: JSONValue) -> JSONValue {
        if case .string(let type)? = schema["type"] {
            var copy = schema
            copy["type"] = .array([.string(type), .string("null")])
            if let values = copy["enum"]?.arrayValue { copy["enum"] = .array(values + [.null]) }
            return copy
        }
        if schema["type"]?.arrayValue?.contains(.string("null")) == true || schema == .object([:]) { return schema }
        if schema["anyOf"]?.arrayValue?.contains(.object(["type": .string("null")])) == true { return schema }
        return .object(["anyOf": .array([schema, .object(["type": .string("null")])])])
    }

    /// `schema` without the `null` that ``nullable(_:)`` added.
    package static func nonNull(_ schema: JSONValue) -> JSONValue {
        if let types = schema["type"]?.arrayValue, types.contains(.null) || types.contains(.string("null")) {
            var copy = schema
            let rest = types.filter { $0 != .string("null") }
            copy["type"] = rest.count == 1 ? rest[0] : .array(rest)
            if let values = copy["enum"]?.arrayValue { copy["enum"] = .array(values.filter { $0 != .null }) }
            return copy
        }
        if let options = schema["anyOf"]?.arrayValue, options.count == 2, options[1] == .object(["type": .string("null")]) {
            return options[0]
        }
        return schema
    }

    private static func cases<C: CaseIterable & RawRepresentable & Decodable>(of type: C.Type) -> (all: [C], values: [JSONValue])? {
        var values: [JSONValue] = []
        for value in type.allCases {
            switch value.rawValue {
            case let text as String: values.append(.string(text))
            case let number as any BinaryInteger: values.append(.number("\(number)"))
            default: return nil
            }
        }
        return values.isEmpty ? nil : (Array(type.allCases), values)
    }

    /// Counts one value or container the probe hands out at `codingPath`, and stops the probe once
    /// it has spent ``stepLimit`` steps or gone ``depthLimit`` levels deep.
    func spend(at codingPath: [any CodingKey]) throws(EndpointError) {
        steps += 1
        guard steps > Self.stepLimit || codingPath.count > Self.depthLimit else { return }
        let where_ = CodingPathText.render(codingPath)
        throw Self.unavailable(probing.first ?? Any.self, because: steps > Self.stepLimit
            ? "its decoding asked the probe for more than \(Self.stepLimit) values (at \(where_)), as a type does that reads a list until a value it expects"
            : "its decoding went more than \(Self.depthLimit) levels deep (at \(where_)), as a type does that recurses while contains(_:) answers true")
    }

    /// Refuses a key that the schema would advertise but the decoder cannot read back: a
    /// snake_case strategy writes `userID` as `user_id`, which `convertFromSnakeCase` reads as
    /// `userId`, and a `CodingKeys` raw value spelled `"last_modified"` is never matched, for the
    /// same reason. A payload that follows such a schema would not decode, and a model's tool call
    /// would fail, so the contract says no rather than something untrue.
    func checkReadable(_ wireName: String, key: some CodingKey, at codingPath: [any CodingKey]) throws {
        guard checksReadBack, key.intValue == nil, let readBack = try readBack(of: wireName, key: key, at: codingPath),
              readBack != key.stringValue else { return }
        let type = probing.last ?? Any.self
        let place = CodingPathText.render(codingPath + [key])
        if try CodingKeyName.isSpelledExplicitly(key) {
            throw Self.unavailable(type, because: "its CodingKeys raw value \"\(key.stringValue)\" (at \(place)) is never matched: the decoder reads the JSON key \"\(wireName)\" as \"\(readBack)\". Spell the raw value \"\(readBack)\", or leave it out")
        }
        throw Self.unavailable(type, because: "its property \(key.stringValue) (at \(place)) is written \"\(wireName)\", which the decoder reads back as \"\(readBack)\", so a payload that follows the schema would not decode. Name the property \(readBack) (still \"\(wireName)\" on the wire)")
    }

    /// The coding key the decoder makes of the JSON key `wireName`; `nil` when it cannot be known.
    private func readBack(of wireName: String, key: some CodingKey, at codingPath: [any CodingKey]) throws(MissingCaseNames) -> String? {
        switch decodingKeys {
        case .useDefaultKeys?:
            return wireName
        case .convertFromSnakeCase?:
            return SnakeCase.fromSnakeCase(wireName)
        case .custom(let convert)?:
            return convert(codingPath + [SnakeCase.PlainKey(wireName)]).stringValue
        case nil:
            // The decoder that pairs with the encoder: snake_case back from snake_case.
            switch keyStrategy {
            case .useDefaultKeys: return wireName
            case .convertToSnakeCase: return SnakeCase.fromSnakeCase(wireName)
            case .custom: return try wireName == SnakeCase.convertUnlessExplicit(key) ? SnakeCase.fromSnakeCase(wireName) : nil
            @unknown default: return nil
            }
        @unknown default:
            return nil
        }
    }

    static func unavailable(_ type: Any.Type, because reason: String) -> EndpointError {
        EndpointError(
            kind: .schemaUnavailable, route: String(reflecting: type),
            reason: "its JSON Schema cannot be derived from its Decodable conformance: \(reason). Describe it by hand: conform \(String(describing: type)) to CustomJSONSchema")
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            "its init(from:) refused the probe's placeholder values (\(context.debugDescription), at \(CodingPathText.render(context.codingPath)))"
        default:
            "its init(from:) threw \(error)"
        }
    }
}

// MARK: - Standard generic types

/// `Optional` and `Nullable`: the wrapped type's schema, or `null`.
protocol SchemaOptional {
    static var wrappedType: any Decodable.Type { get }
    /// The wrapped placeholder, or none when there is no value (a recursive type).
    static func probeValue(_ wrapped: Any?) -> Any
}

extension Optional: SchemaOptional where Wrapped: Decodable {
    static var wrappedType: any Decodable.Type { Wrapped.self }
    static func probeValue(_ wrapped: Any?) -> Any { wrapped as? Wrapped as Any }
}

extension Nullable: SchemaOptional where Wrapped: Decodable {
    static var wrappedType: any Decodable.Type { Wrapped.self }
    static func probeValue(_ wrapped: Any?) -> Any {
        if let value = wrapped as? Wrapped { Nullable.value(value) } else { Nullable.null }
    }
}

/// Arrays and sets: `type: array` of the element's schema; the placeholder is empty.
protocol SchemaSequence {
    static var elementType: any Decodable.Type { get }
    static var hasUniqueElements: Bool { get }
    static var emptyProbeValue: Any { get }
}

extension Array: SchemaSequence where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var hasUniqueElements: Bool { false }
    static var emptyProbeValue: Any { [Element]() }
}

extension Set: SchemaSequence where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var hasUniqueElements: Bool { true }
    static var emptyProbeValue: Any { Set<Element>() }
}

/// Dictionaries: `type: object` with `additionalProperties` for the values and, for keys other
/// than strings, `propertyNames` for what the keys may be.
protocol SchemaDictionary {
    static var keyType: Any.Type { get }
    static var valueType: any Decodable.Type { get }
    static var emptyProbeValue: Any { get }
}

extension Dictionary: SchemaDictionary where Key: Decodable, Value: Decodable {
    static var keyType: Any.Type { Key.self }
    static var valueType: any Decodable.Type { Value.self }
    static var emptyProbeValue: Any { [Key: Value]() }
}

extension SchemaBuilder {
    /// What the keys of a dictionary keyed by `key` look like in JSON, where every key is a string:
    /// `nil` for `String` (anything), a pattern for `Int` (`JSONEncoder` writes `7` as `"7"`),
    /// the raw values for an enumeration. A key JSONEncoder cannot write as a string turns the
    /// dictionary into a list of keys and values, which this refuses.
    static func propertyNames(of key: Any.Type, in dictionary: Any.Type) throws -> JSONValue? {
        if key == String.self { return nil }
        if key == Int.self {  // the one integer key JSONEncoder writes as a member name
            return .object(["type": .string("string"), "pattern": .string(integerPattern)])
        }
        // CodingKeyRepresentable is iOS 15.4, macOS 12.3: before, only String and Int keys make
        // an object, as the standard library then decides at run time too.
        if #available(macOS 12.3, iOS 15.4, tvOS 15.4, watchOS 8.5, *) {
            if let enumeration = key as? any (CaseIterable & RawRepresentable & CodingKeyRepresentable).Type,
               let names = rawStrings(of: enumeration) {
                return .object(["type": .string("string"), "enum": .array(names.map(JSONValue.string))])
            }
            if key is any CodingKeyRepresentable.Type {
                return .object(["type": .string("string")])
            }
        }
        throw unavailable(dictionary, because: "JSONEncoder writes a dictionary keyed by \(key) as one list of keys and values in turn, which JSON Schema cannot describe; key it by String, Int or a CodingKeyRepresentable type")
    }

    /// A decimal `Int` in text, from `Int.min` to `Int.max` exactly: what `Int(_:)` reads back.
    static let integerPattern: String = {
        /// Digit strings of `limit`'s length that are at most `limit`, as alternatives.
        func atMost(_ limit: String) -> [String] {
            let digits = Array(limit)
            var alternatives: [String] = []
            for index in digits.indices where digits[index] != "0" {
                let below = digits[index] == "1" ? "0" : "[0-\(Character(UnicodeScalar(digits[index].asciiValue! - 1)))]"
                let rest = digits.count - index - 1
                alternatives.append(String(digits[..<index]) + below + (rest > 0 ? "[0-9]{\(rest)}" : ""))
            }
            return alternatives + [limit]
        }
        let maximum = String(Int.max), magnitudeOfMinimum = String(String(Int.min).dropFirst())
        let shorter = "[1-9][0-9]{0,\(maximum.count - 2)}"  // fewer digits than the limits
        let positive = ([shorter] + atMost(maximum).filter { !$0.hasPrefix("0") }).joined(separator: "|")
        let negative = ([shorter] + atMost(magnitudeOfMinimum).filter { !$0.hasPrefix("0") }).joined(separator: "|")
        return "^(0|\(positive.isEmpty ? "" : "(\(positive))")|-(\(negative)))$"
    }()

    private static func rawStrings<C: CaseIterable & RawRepresentable>(of type: C.Type) -> [String]? {
        let names = type.allCases.compactMap { $0.rawValue as? String }
        return names.count == type.allCases.count ? names : nil
    }
}

extension EndpointError.Kind {
    /// A JSON Schema or OpenAPI document could not be derived: a type's decoding cannot be
    /// observed (`route` names the type, `reason` says why and how to describe it by hand with
    /// ``CustomJSONSchema``), or an endpoint cannot be described as it is declared.
    ///
    /// ```swift
    /// catch let error as EndpointError where error.kind == .schemaUnavailable { print(error.reason) }
    /// ```
    public static let schemaUnavailable = EndpointError.Kind(description: "schemaUnavailable")
}
