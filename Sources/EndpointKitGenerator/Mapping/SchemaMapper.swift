#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Yams

/// Turns JSON Schemas into Swift types: a type expression for each schema, and the declarations
/// (structs, enums, unions) that expression needs, nested in the type that uses them.
///
/// The rules, in the order they are tried:
/// - a schema that also allows `null` (a `type` list with `null`, `anyOf`/`oneOf` with a `null`
///   alternative, `null` in an `enum`) is the other schema, optional;
/// - `$ref` to `#/components/schemas/Name` is the component's type, `Name` in UpperCamelCase;
/// - `allOf` of one schema is that schema; of several objects, one struct of all their properties;
/// - `oneOf`/`anyOf` is an enum with one case per alternative (see ``union(_:at:named:)``);
/// - `enum` of strings or integers is a Swift enum; a single value (`const`) is a fixed property;
/// - `string` is `String`, `Date` (`date-time`), `UUID` (`uuid`), `URL` (`uri`) or `Data` (`byte`,
///   `binary`, base64, `application/octet-stream`); `integer` is `Int` (`Int32`, `UInt64`… by format); `number` is
///   `Double` (`Float`); `boolean` is `Bool`; `array` is `[Element]`;
/// - an object with properties is a struct; with `additionalProperties` alone, `[String: Value]`;
///   `{}` and anything open is `JSONValue`.
///
/// Refused, with the JSON path and the fix: `not`, `if`/`then`/`else`, `dependentSchemas`,
/// `patternProperties`, references outside `#/components/schemas`, and unions whose alternatives
/// cannot be told apart.
final class SchemaMapper {
    let keyStyle: KeyStyle
    /// `#/components/schemas`, in document order.
    let components: [(key: String, schema: Node)]
    /// Component key → Swift type name.
    private(set) var componentNames: [String: String] = [:]
    /// Top-level declaration name → the component key it was made for.
    private(set) var declarationOwners: [String: String] = [:]

    /// When set, a schema without a faithful Swift type is `JSONValue` (every value kept, none
    /// typed) and its refusal is recorded in ``fallbacks`` instead of thrown.
    let fallsBack: Bool
    private(set) var fallbacks: [GenerationError] = []

    /// Names no generated type may take: Swift's own and those the generated code uses.
    let reservedNames: Set<String>

    init(components: [(key: String, schema: Node)], keyStyle: KeyStyle, reservedNames: Set<String>, fallsBack: Bool = false) {
        self.components = components
        self.reservedNames = reservedNames.union(["Type", "Protocol", "Self", "Any"])
        self.keyStyle = keyStyle
        self.fallsBack = fallsBack
        // A schema named like a type the code uses (`Error`, `Data`) becomes `ErrorModel`, `DataModel`.
        let names = SwiftNames.unique(components.map { component in
            let name = SwiftNames.upperCamel(component.key)
            return reservedNames.contains(name) ? name + "Model" : name
        }, avoiding: reservedNames)
        for (component, name) in zip(components, names) { componentNames[component.key] = name }
        componentTypeNames = Set(names)
    }

    /// The components' type names, which no nested type may take.
    private let componentTypeNames: Set<String>

    /// A type expression and whether the schema allows `null`.
    struct Mapped {
        var type: String
        var allowsNull: Bool
        /// The JSON type of the values (`object`, `string`…), when there is one; unions use it.
        var jsonType: String?
    }

    // MARK: - Components

    /// The top-level declaration of each component schema, in document order.
    func componentDeclarations() throws -> [Declaration] {
        var declarations: [Declaration] = []
        let recursive = recursiveComponents()
        // Top-level names: the components', the reserved ones, and those hoisted beside an alias.
        var taken = Set(componentNames.values).union(reservedNames)
        for component in components {
            let name = componentNames[component.key]!
            let path = "#/components/schemas/" + DocumentLoader.pointerEscaped(component.key)
            var nested: [Declaration] = []
            var declaration: Declaration
            if let made = try fallingBack({ try self.declaration(for: component.schema, at: path, named: name, nested: &nested) }) {
                declaration = made ?? Declaration(name: name, documentation: [], kind: .alias("JSONValue"))
            } else {
                let mapped = try map(component.schema, at: path, named: name, nested: &nested)
                declaration = Declaration(name: name, documentation: [], kind: .alias(mapped.type + (mapped.allowsNull ? "?" : "")))
            }
            declaration.documentation = SchemaMapper.documentation(of: component.schema)
            declarationOwners[name] = component.key
            if case .alias(var aliased) = declaration.kind {
                // An alias has no body to nest in: what it needs goes beside it, under a name no
                // other top-level type has (the items of `ToolCalls` are not the component `ToolCall`).
                for index in nested.indices where taken.contains(nested[index].name) {
                    let renamed = SwiftNames.unique([name + "Item"], avoiding: taken)[0]
                    aliased = SchemaMapper.renaming(nested[index].name, to: renamed, in: aliased)
                    nested[index].name = renamed
                }
                taken.formUnion(nested.map(\.name))
                declaration.kind = .alias(aliased)
                declarations.append(declaration)
                declarations += nested
                for declaration in nested { declarationOwners[declaration.name] = component.key }
                continue
            }
            declaration.nested += nested
            if recursive.contains(component.key), case .structure(var shape) = declaration.kind {
                shape.isClass = true
                declaration.kind = .structure(shape)
            }
            declarations.append(declaration)
        }
        return fixingTags(declarations)
    }

    /// `type` with every whole-word `name` in it replaced by `replacement`: `[ToolCall]` → `[ToolCallsItem]`.
    static func renaming(_ name: String, to replacement: String, in type: String) -> String {
        var result = ""
        var word = ""
        for character in type + " " {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            result += word == name && !(result.last == ".") ? replacement : word
            word = ""
            result.append(character)
        }
        return String(result.dropLast())
    }

    /// A component that is one alternative of a tagged union gets its tag as the property's default
    /// (`Cat(indoor: true)` rather than `Cat(petType: "cat", indoor: true)`), when it has one tag.
    private func fixingTags(_ declarations: [Declaration]) -> [Declaration] {
        var tags: [String: (key: String, value: String)] = [:]
        for declaration in declarations {
            guard case .union(let shape) = declaration.kind, let tag = shape.tag else { continue }
            for alternative in shape.alternatives where alternative.tags.count == 1 { tags[alternative.type] = (tag.json, alternative.tags[0]) }
        }
        return declarations.map { declaration in
            guard let tag = tags[declaration.name], case .structure(var shape) = declaration.kind else { return declaration }
            for index in shape.properties.indices where keyStyle.property(forKey: tag.key).name == shape.properties[index].name && shape.properties[index].type == "String" {
                shape.properties[index].defaultValue = SwiftWriter.literal(tag.value)
                shape.properties[index].isOptional = false
            }
            var fixed = declaration
            fixed.kind = .structure(shape)
            return fixed
        }
    }

    /// The declaration a schema needs under `name` when it is a struct, an enum or a union
    /// (rather than a type that exists already, such as `[Pet]` or `String`).
    func declaration(for schema: Node, at path: String, named name: String, nested: inout [Declaration]) throws -> Declaration? {
        try refuseUnsupported(schema, at: path)
        let path = path + nullWrapperStep(schema)
        let (schema, _) = withoutNull(schema)
        if schema["$ref"] != nil { return nil }
        if let members = schema["allOf"]?.sequence {
            if members.count == 1, schema["properties"] == nil { return try declaration(for: members[0], at: path + "/allOf/0", named: name, nested: &nested) }
            return try structure(flattening: schema, at: path, named: name)
        }
        if let key = ["oneOf", "anyOf"].first(where: { schema[$0] != nil }), let alternatives = schema[key]?.sequence {
            // One alternative is that alternative (Anthropic's `{oneOf: [$ref], discriminator}`).
            if alternatives.count == 1, schema["properties"] == nil {
                return try declaration(for: alternatives[0], at: path + "/\(key)/0", named: name, nested: &nested)
            }
            if alternatives.count > 1 {
                // An alternative that accepts anything (`{}`) makes the whole union JSONValue;
                // strings of several formats (a UUID or a name) are a String.
                if alternatives.contains(where: isOpen) || isStringChoice(alternatives) { return nil }
                if let split = requirementAlternatives(of: schema, key: key) { return try union(split, at: path, named: name) }
                return try union(schema, at: path, named: name)
            }
        }
        if let values = schema["enum"]?.sequence, values.count > 1 || schema["const"] == nil {
            return enumeration(values, at: path, named: name, isInteger: types(of: schema).contains("integer"))
        }
        if schema["properties"] != nil || schema["required"] != nil && types(of: schema).contains("object") {
            return try structure(flattening: schema, at: path, named: name)
        }
        let kinds = types(of: schema)
        if kinds.count > 1 {
            let alternatives = kinds.map { kind -> Node in
                var node = Node.Mapping([])
                node["type"] = Node(kind)
                if kind == "array", let items = schema["items"] { node["items"] = items }
                return .mapping(node)
            }
            var synthetic = Node.Mapping([])
            synthetic["anyOf"] = .sequence(Node.Sequence(alternatives))
            return try union(.mapping(synthetic), at: path, named: name)
        }
        return nil
    }

    /// `body`'s result; when it refuses and ``fallsBack`` is set, the refusal is recorded and the
    /// result is `.some(nil)`: "use JSONValue".
    private func fallingBack(_ body: () throws -> Declaration?) throws -> Declaration?? {
        do {
            guard let made = try body() else { return nil }
            return .some(made)
        } catch let error as GenerationError where fallsBack {
            if !fallbacks.contains(error) { fallbacks.append(error) }
            return .some(nil)
        }
    }

    // MARK: - Type expressions

    /// The Swift type of `schema`; declarations it needs are appended to `nested`, named after `name`.
    func map(_ schema: Node, at path: String, named name: String, nested: inout [Declaration]) throws -> Mapped {
        let (inner, allowsNull) = withoutNull(schema)
        do {
            try refuseUnsupported(schema, at: path)
            var mapped = try mapNonNull(inner, at: path + nullWrapperStep(schema), named: name, nested: &nested)
            mapped.allowsNull = mapped.allowsNull || allowsNull
            return mapped
        } catch let error as GenerationError where fallsBack {
            if !fallbacks.contains(error) { fallbacks.append(error) }
            return Mapped(type: "JSONValue", allowsNull: allowsNull, jsonType: nil)
        }
    }

    private func mapNonNull(_ schema: Node, at path: String, named name: String, nested: inout [Declaration]) throws -> Mapped {
        if let reference = schema["$ref"]?.string {
            let key = try componentKey(reference, at: path)
            let target = components.first { $0.key == key }!.schema
            let (inner, allowsNull) = withoutNull(target)
            return Mapped(type: componentNames[key]!, allowsNull: allowsNull, jsonType: jsonType(of: inner))
        }
        if let members = schema["allOf"]?.sequence, members.count == 1, schema["properties"] == nil {
            return try map(members[0], at: path + "/allOf/0", named: name, nested: &nested)
        }
        if let key = ["oneOf", "anyOf"].first(where: { schema[$0] != nil }), let alternatives = schema[key]?.sequence,
           alternatives.count == 1, schema["properties"] == nil {
            return try map(alternatives[0], at: path + "/\(key)/0", named: name, nested: &nested)
        }
        if let alternatives = (schema["oneOf"] ?? schema["anyOf"])?.sequence, isStringChoice(alternatives) {
            return Mapped(type: "String", allowsNull: false, jsonType: "string")
        }
        if let declaration = try declaration(for: schema, at: path, named: name, nested: &nested) {
            nested.append(declaration)
            return Mapped(type: name, allowsNull: false, jsonType: jsonType(of: schema))
        }
        if let value = schema["const"] ?? schema["enum"]?.sequence?.first {
            return Mapped(type: value.int != nil && value.string?.contains(".") != true && types(of: schema) != ["string"] && !value.isText ? "Int" : "String", allowsNull: false, jsonType: value.isText ? "string" : "integer")
        }
        // A file, as EndpointKitContract writes one: no type, only its media type.
        if types(of: schema).isEmpty, schema["contentMediaType"] != nil { return Mapped(type: "Data", allowsNull: false, jsonType: "string") }
        switch types(of: schema).first {
        case "string"?: return Mapped(type: stringType(schema), allowsNull: false, jsonType: "string")
        case "integer"?:
            let formats = ["int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
                           "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"]
            let type = formats[schema["format"]?.string ?? ""] ?? "Int"
            return Mapped(type: type, allowsNull: false, jsonType: "integer")
        case "number"?: return Mapped(type: schema["format"]?.string == "float" ? "Float" : "Double", allowsNull: false, jsonType: "number")
        case "boolean"?: return Mapped(type: "Bool", allowsNull: false, jsonType: "boolean")
        case "array"?:
            guard let items = schema["items"] else { return Mapped(type: "[JSONValue]", allowsNull: false, jsonType: "array") }
            let element = try map(items, at: path + "/items", named: available(SwiftNames.singular(name)), nested: &nested)
            return Mapped(type: "[\(element.type)\(element.allowsNull ? "?" : "")]", allowsNull: false, jsonType: "array")
        case "object"?:
            if let additional = schema["additionalProperties"], additional.mapping != nil {
                let value = try map(additional, at: path + "/additionalProperties", named: available(name + "Value"), nested: &nested)
                return Mapped(type: "[String: \(value.type)\(value.allowsNull ? "?" : "")]", allowsNull: false, jsonType: "object")
            }
            return Mapped(type: "[String: JSONValue]", allowsNull: false, jsonType: "object")
        default:
            return Mapped(type: "JSONValue", allowsNull: false, jsonType: nil)
        }
    }

    private func stringType(_ schema: Node) -> String {
        switch schema["format"]?.string {
        case "date-time"?: return "Date"
        case "uuid"?: return "UUID"
        case "uri"?: return "URL"
        case "byte"?, "binary"?: return "Data"
        default:
            if schema["contentEncoding"]?.string == "base64" || schema["contentMediaType"] != nil { return "Data" }
            return "String"
        }
    }

    // MARK: - Structs

    /// A struct of the schema's properties, `allOf` members' properties first.
    func structure(flattening schema: Node, at path: String, named name: String) throws -> Declaration {
        var properties: [(key: String, schema: Node, path: String)] = []
        var required = Set<String>()
        try collectProperties(of: schema, at: path, into: &properties, required: &required, depth: 0)
        var nested: [Declaration] = []
        var result: [Property] = []
        let names = SwiftNames.unique(properties.map { keyStyle.property(forKey: $0.key).name }, avoiding: [])
        for (index, property) in properties.enumerated() {
            var made = try self.property(property.key, schema: property.schema, at: property.path, required: required.contains(property.key), nested: &nested)
            if made.name != names[index] {
                made.codingKey = made.codingKey ?? (keyStyle == .snakeCase ? SwiftNames.propertyName(forKey: property.key).name : property.key)
                made.name = names[index]
            }
            result.append(made)
        }
        return Declaration(name: name, documentation: [], kind: .structure(StructShape(properties: result)), nested: nested)
    }

    /// The name of a type nested for the property `key`: `Status` for `status`, and `DataValue`
    /// for `data`, since a nested `Data` would hide Foundation's inside its parent.
    func nestedName(for key: String) -> String {
        available(SwiftNames.upperCamel(key))
    }

    /// `name`, or `name` + `Value` when a nested type of that name would hide a type the code
    /// refers to inside its parent: one of Swift's or the generated code's (`Data`), or a
    /// component's (Cohere's `Chatv2.documents` holds strings or `Document`s; an enum
    /// `Chatv2.Document` for its items would make `Document` mean itself there).
    func available(_ name: String) -> String {
        reservedNames.contains(name) || componentTypeNames.contains(name) ? name + "Value" : name
    }

    /// One property: optional unless required and not nullable; a single allowed value becomes a
    /// fixed default (a union's tag).
    func property(_ key: String, schema: Node, at path: String, required: Bool, nested: inout [Declaration]) throws -> Property {
        let (name, codingKey) = keyStyle.property(forKey: key)
        let mapped = try map(schema, at: path, named: nestedName(for: key), nested: &nested)
        var property = Property(name: name, codingKey: codingKey, type: mapped.type, isOptional: !required || mapped.allowsNull,
                                documentation: SchemaMapper.documentation(of: schema))
        property.allowsNull = mapped.allowsNull
        let (inner, _) = withoutNull(schema)
        if required, !mapped.allowsNull, let fixed = singleValue(inner) {
            switch mapped.type {
            case "String": property.defaultValue = SwiftWriter.literal(fixed.string ?? "")
            case "Int" where !fixed.isText: property.defaultValue = fixed.string
            default: break
            }
        }
        return property
    }

    private func collectProperties(of schema: Node, at path: String, into properties: inout [(key: String, schema: Node, path: String)],
                                   required: inout Set<String>, depth: Int) throws {
        guard depth < 32 else { throw GenerationError(path: path, problem: "allOf refers to itself", fix: "Break the cycle of allOf references") }
        if let reference = schema["$ref"]?.string {
            let key = try componentKey(reference, at: path)
            let target = components.first { $0.key == key }!.schema
            try collectProperties(of: target, at: "#/components/schemas/" + DocumentLoader.pointerEscaped(key), into: &properties, required: &required, depth: depth + 1)
            // In 3.1 a `$ref` applies beside its siblings: `{"$ref": Cat, "properties": {"species":
            // {"const": "cat"}}}` (what EndpointKitContract exports for a tagged alternative) fixes the tag.
        }
        try refuseUnsupported(schema, at: path)
        for (index, member) in (schema["allOf"]?.sequence ?? []).enumerated() {
            let memberPath = path + "/allOf/\(index)"
            let resolved = try resolved(member, at: memberPath)
            guard resolved["properties"] != nil || resolved["allOf"] != nil || types(of: resolved) == ["object"] else {
                throw GenerationError(path: memberPath, problem: "allOf combines an object with something that is not one",
                                      fix: "Make every allOf member an object schema (or a reference to one)")
            }
            try collectProperties(of: member, at: memberPath, into: &properties, required: &required, depth: depth + 1)
        }
        for (key, value) in schema["properties"]?.mapping ?? [:] {
            guard let name = key.string else { continue }
            let entry = (key: name, schema: value, path: path + "/properties/" + DocumentLoader.pointerEscaped(name))
            if let index = properties.firstIndex(where: { $0.key == name }) { properties[index] = entry } else { properties.append(entry) }
        }
        for key in schema["required"]?.sequence ?? [] { if let name = key.string { required.insert(name) } }
    }

    // MARK: - Enums

    private func enumeration(_ values: Node.Sequence, at path: String, named name: String, isInteger: Bool) -> Declaration {
        let texts = values.compactMap { $0.isNull ? nil : $0.string }
        let names = SwiftNames.unique(texts.map { value in
            if isInteger { return value.hasPrefix("-") ? "valueMinus" + value.dropFirst() : "value" + value }
            let camel = SwiftNames.lowerCamel(value)
            return camel == "_" || camel.isEmpty ? "empty" : camel
        }, avoiding: [])
        let cases = zip(names, texts).map { (name: $0.0, value: $0.1) }
        return Declaration(name: name, documentation: [], kind: .valueEnum(rawType: isInteger ? "Int" : "String", cases: cases))
    }

    // MARK: - Unions

    /// An enum with one case per alternative of `oneOf` or `anyOf`, told apart by, in this order:
    /// 1. the `discriminator` (its `mapping`, or else each referenced component's name);
    /// 2. a property that every alternative fixes to its own single value (`const` or a one-value
    ///    `enum`): a tag the document does not name;
    /// 3. for objects, a required key that only one of them has (`cron`, `interval`, `rrule`);
    /// 4. distinct JSON types (one array, one string…), tried as `Bool`, integers, numbers, strings,
    ///    arrays and then the objects, in that order.
    /// Objects that none of these tells apart overlap: they are refused.
    func union(_ schema: Node, at path: String, named name: String) throws -> Declaration {
        var declaration = try unionShape(schema, at: path, named: name)
        if case .union(var shape) = declaration.kind {
            shape.example = example(of: schema).json
            declaration.kind = .union(shape)
        }
        return declaration
    }

    private func unionShape(_ schema: Node, at path: String, named name: String) throws -> Declaration {
        let key = schema["oneOf"] != nil ? "oneOf" : "anyOf"
        let alternatives = (schema[key]?.sequence ?? []).enumerated().filter { !isNull($0.element) }
        var nested: [Declaration] = []
        var made: [UnionShape.Alternative] = []
        var objects = 0
        for (index, alternative) in alternatives {
            let altPath = path + "/\(key)/\(index)"
            let reference = alternative["$ref"]?.string.map { try? componentKey($0, at: altPath) } ?? nil
            let hint = reference.map { componentNames[$0]! } ?? (alternative["title"]?.string.map(SwiftNames.upperCamel) ?? "Option\(index + 1)")
            let mapped = try map(alternative, at: altPath, named: hint, nested: &nested)
            let jsonType = mapped.jsonType ?? "any"
            if jsonType == "object" { objects += 1 }
            let caseName = reference.map { SwiftNames.lowerCamel(componentNames[$0]!) } ?? SwiftNames.lowerCamel(alternative["title"]?.string ?? jsonType)
            made.append(UnionShape.Alternative(caseName: caseName, type: mapped.type + (mapped.allowsNull ? "?" : ""), jsonType: jsonType))
        }
        // 1. The discriminator.
        if let discriminator = schema["discriminator"], let propertyName = discriminator["propertyName"]?.string {
            var tags = Array(repeating: [String](), count: made.count)
            for (value, target) in discriminator["mapping"]?.mapping ?? [:] {
                guard let value = value.string, let target = target.string else { continue }
                let targetKey = try componentKey(target.hasPrefix("#") ? target : "#/components/schemas/" + target, at: path + "/discriminator/mapping")
                if let index = alternatives.firstIndex(where: { $0.element["$ref"]?.string.flatMap { try? componentKey($0, at: path) } == targetKey }) {
                    tags[index].append(value)
                }
            }
            // Without a mapping, OpenAPI names each alternative by its component; real APIs
            // (OpenAI's) send the value the alternative fixes the property to: both are read, the
            // fixed value where no other alternative fixes the same one.
            var fixedValues: [String?] = []
            for alternative in alternatives {
                fixedValues.append(try fixedText(of: propertyName, in: alternative.element, at: path + "/\(key)/\(alternative.offset)"))
            }
            let mapped = Set(tags.joined())
            for (index, alternative) in alternatives.enumerated() where tags[index].isEmpty {
                var fixed = fixedValues[index]
                if let value = fixed, fixedValues.filter({ $0 == value }).count > 1 || mapped.contains(value) { fixed = nil }
                guard let reference = alternative.element["$ref"]?.string else {
                    guard let fixed else {
                        throw GenerationError(path: path + "/\(key)/\(alternative.offset)", problem: "an inline alternative has no tag value in the discriminator's mapping",
                                              fix: "Move it to #/components/schemas or add it to discriminator.mapping")
                    }
                    tags[index] = [fixed]
                    continue
                }
                let component = try componentKey(reference, at: path)
                tags[index] = fixed.map { $0 == component ? [$0] : [$0, component] } ?? [component]
            }
            for index in made.indices { made[index].tags = tags[index] }
            return tagged(made, tagKey: propertyName, name: name, nested: nested)
        }
        // 2. A tag the alternatives fix.
        if objects == made.count, let (tagKey, values) = try inferredTag(alternatives.map(\.element), at: path) {
            for index in made.indices { made[index].tags = [values[index]] }
            return tagged(made, tagKey: tagKey, name: name, nested: nested)
        }
        // 3. Objects told apart by a required key that only one of them has.
        if objects > 1, let keys = try distinctKeys(alternatives.map(\.element), objectIndices: made.indices.filter { made[$0].jsonType == "object" }, at: path) {
            for (index, key) in keys { made[index].presentKey = keyStyle.property(forKey: key) }
        }
        // 4. Distinct JSON types.
        let kinds = made.map { $0.jsonType ?? "any" }
        let objectsTold = objects <= 1 || made.filter { $0.jsonType == "object" && $0.presentKey == nil }.count <= 1
        guard objectsTold, Set(kinds.filter { $0 != "object" }).count == kinds.filter({ $0 != "object" }).count, !kinds.contains("any") else {
            throw GenerationError(
                path: path + "/" + key,
                problem: "the alternatives cannot be told apart: \(objects > 1 ? "\(objects) objects without a discriminator or a property fixed to a distinct value in each" : "two alternatives of the same JSON type (\(kinds.joined(separator: ", ")))")",
                fix: "Add a discriminator (propertyName and mapping), or give each object alternative a property with its own const value")
        }
        let order = ["boolean", "integer", "number", "string", "array", "object"]
        made = made.enumerated().sorted { ($0.element.jsonType.flatMap(order.firstIndex) ?? 9, $0.offset) < ($1.element.jsonType.flatMap(order.firstIndex) ?? 9, $1.offset) }.map(\.element)
        made = zip(made, SwiftNames.unique(made.map(\.caseName), avoiding: [])).map { alternative, caseName in
            var alternative = alternative
            alternative.caseName = caseName
            return alternative
        }
        return Declaration(name: name, documentation: [], kind: .union(UnionShape(alternatives: made, tag: nil)), nested: nested)
    }

    /// An object whose `oneOf` alternatives only require different keys of its own properties
    /// (OpenAI's `file_search`: `{required: [vector_store_ids]}` or `{required: [vector_stores]}`),
    /// as a union of objects: each alternative has the properties but those only the others
    /// require, and is named after its own required key. `nil` for any other shape.
    private func requirementAlternatives(of schema: Node, key: String) -> Node? {
        guard let mapping = schema.mapping, let properties = schema["properties"]?.mapping,
              let alternatives = schema[key]?.sequence,
              alternatives.allSatisfy({ alternative in
                  alternative["required"]?.sequence != nil
                      && (alternative.mapping?.allSatisfy { ["required", "description", "title"].contains($0.key.string ?? "") } ?? false)
              }) else { return nil }
        let propertyKeys = properties.compactMap { $0.key.string }
        let requiredBy = alternatives.map { Set(($0["required"]?.sequence ?? []).compactMap(\.string)) }
        let shared = Set((schema["required"]?.sequence ?? []).compactMap(\.string))
        var split: [Node] = []
        for (index, own) in requiredBy.enumerated() {
            let theirs = requiredBy.enumerated().filter { $0.offset != index }.reduce(into: Set<String>()) { $0.formUnion($1.element) }.subtracting(own)
            guard let title = propertyKeys.first(where: own.contains) else { return nil }
            var node = Node.Mapping(mapping.filter { $0.key.string != key && $0.key.string != "required" }.map { ($0.key, $0.value) })
            node["properties"] = .mapping(Node.Mapping(properties.filter { !theirs.contains($0.key.string ?? "") }.map { ($0.key, $0.value) }))
            node["required"] = .sequence(Node.Sequence(propertyKeys.filter { own.contains($0) || shared.contains($0) }.map { Node($0) }))
            node["title"] = Node(title)
            split.append(.mapping(node))
        }
        var union = Node.Mapping([])
        union["anyOf"] = .sequence(Node.Sequence(split))
        return .mapping(union)
    }

    private func tagged(_ alternatives: [UnionShape.Alternative], tagKey: String, name: String, nested: [Declaration]) -> Declaration {
        let (swiftKey, codingKey) = keyStyle.property(forKey: tagKey)
        var alternatives = alternatives
        let caseNames = SwiftNames.unique(alternatives.map { $0.tags.first.map(SwiftNames.lowerCamel) ?? $0.caseName }, avoiding: [])
        for index in alternatives.indices { alternatives[index].caseName = caseNames[index] }
        return Declaration(name: name, documentation: [], kind: .union(UnionShape(alternatives: alternatives, tag: (swiftKey, codingKey, tagKey))), nested: nested)
    }

    /// For each object alternative, a required key that no other object alternative has at all; nil
    /// when one of them has none (the objects overlap).
    private func distinctKeys(_ alternatives: [Node], objectIndices: [Int], at path: String) throws -> [Int: String]? {
        var required: [Int: [String]] = [:]
        var all: [Int: Set<String>] = [:]
        for index in objectIndices {
            var properties: [(key: String, schema: Node, path: String)] = []
            var requiredKeys = Set<String>()
            try collectProperties(of: alternatives[index], at: path, into: &properties, required: &requiredKeys, depth: 0)
            required[index] = properties.map(\.key).filter(requiredKeys.contains)
            all[index] = Set(properties.map(\.key))
        }
        var result: [Int: String] = [:]
        var unkeyed = 0
        for index in objectIndices {
            let others = objectIndices.filter { $0 != index }.reduce(into: Set<String>()) { $0.formUnion(all[$1] ?? []) }
            guard let key = required[index]?.first(where: { !others.contains($0) }) else {
                // One object may have no key of its own: it is what an object with none of the
                // others' keys is (`Requested{id}` beside `Responded{id, approved}`).
                unkeyed += 1
                guard unkeyed == 1 else { return nil }
                continue
            }
            result[index] = key
        }
        return result
    }

    /// The text `alternative` fixes its property `key` to (`const`, or an `enum` of one value).
    func fixedText(of key: String, in alternative: Node, at path: String) throws -> String? {
        var properties: [(key: String, schema: Node, path: String)] = []
        var required = Set<String>()
        try collectProperties(of: alternative, at: path, into: &properties, required: &required, depth: 0)
        guard let property = properties.first(where: { $0.key == key }),
              let value = singleValue(withoutNull(property.schema).0), value.isText else { return nil }
        return value.string
    }

    /// The property every alternative fixes to a distinct single string value, if there is one.
    private func inferredTag(_ alternatives: [Node], at path: String) throws -> (String, [String])? {
        var candidates: [String]?
        var fixed: [[String: String]] = []
        for alternative in alternatives {
            var properties: [(key: String, schema: Node, path: String)] = []
            var required = Set<String>()
            try collectProperties(of: alternative, at: path, into: &properties, required: &required, depth: 0)
            var values: [String: String] = [:]
            for property in properties {
                if let value = singleValue(withoutNull(property.schema).0), value.isText, let text = value.string { values[property.key] = text }
            }
            fixed.append(values)
            let keys = properties.map(\.key).filter { values[$0] != nil }
            candidates = candidates.map { $0.filter(keys.contains) } ?? keys
        }
        for key in candidates ?? [] {
            let values = fixed.map { $0[key]! }
            if Set(values).count == values.count { return (key, values) }
        }
        return nil
    }

    // MARK: - Reading schemas

    /// `/anyOf/1` for `anyOf: [null, T]`, which ``withoutNull(_:)`` reads as `T`: the step to `T`
    /// in a JSON path, so that what is reported about `T` names a place the document has.
    func nullWrapperStep(_ schema: Node) -> String {
        for key in ["anyOf", "oneOf"] {
            guard let alternatives = schema[key]?.sequence, alternatives.contains(where: isNull) else { continue }
            let rest = alternatives.enumerated().filter { !isNull($0.element) }
            return rest.count == 1 ? "/\(key)/\(rest[0].offset)" : ""
        }
        return ""
    }

    /// The schema without its `null` alternative, and whether it had one.
    func withoutNull(_ schema: Node) -> (Node, Bool) {
        guard var mapping = schema.mapping else { return (schema, false) }
        if case .sequence(let types)? = mapping["type"], types.contains(where: { $0.string == "null" }) {
            let rest = types.filter { $0.string != "null" }
            mapping["type"] = rest.count == 1 ? rest[0] : .sequence(Node.Sequence(rest))
            return (.mapping(mapping), true)
        }
        if mapping["nullable"]?.bool == true {
            mapping["nullable"] = nil
            return (.mapping(mapping), true)
        }
        if let values = mapping["enum"]?.sequence, values.contains(where: { $0.isNull }) {
            mapping["enum"] = .sequence(Node.Sequence(values.filter { !$0.isNull }))
            return (.mapping(mapping), true)
        }
        for key in ["anyOf", "oneOf"] {
            guard let alternatives = mapping[key]?.sequence, alternatives.contains(where: isNull) else { continue }
            let rest = alternatives.filter { !isNull($0) }
            if rest.count == 1 {
                mapping[key] = nil
                // The one alternative left, with the outer schema's notes (description, default).
                guard case .mapping(let only) = rest[0] else { return (rest[0], true) }
                for (entryKey, value) in only where mapping[entryKey] == nil { mapping[entryKey] = value }
                return (.mapping(mapping), true)
            }
            mapping[key] = .sequence(Node.Sequence(rest))
            return (.mapping(mapping), true)
        }
        return (schema, false)
    }

    /// Alternatives that are all strings (free text, enumerations, formats): a `String`, as README
    /// says, since no Swift type holds "one of these values, or any text".
    private func isStringChoice(_ alternatives: Node.Sequence) -> Bool {
        let strings = alternatives.filter { !isNull($0) }
        return strings.count > 1 && strings.allSatisfy { jsonType(of: $0) == "string" }
    }

    /// Whether a `not` only excludes a range of numbers (bounds, a `const`, or another such `not`),
    /// as EndpointKitContract writes for `Double`'s values too small to hold: a `Double` or an
    /// integer type still holds what is left, so it is read as a note, not refused.
    static func excludesOnlyNumbers(_ excluded: Node) -> Bool {
        guard let mapping = excluded.mapping, !mapping.isEmpty else { return false }
        let bounds: Set<String> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "const", "not", "type"]
        for (key, value) in mapping {
            guard let key = key.string, bounds.contains(key) else { return false }
            if key == "not", !excludesOnlyNumbers(value) && !(value["const"].map { $0.float != nil || $0.int != nil } ?? false) { return false }
            if key == "type", value.string != "number" && value.string != "integer" { return false }
            if key == "const", value.float == nil && value.int == nil { return false }
        }
        return true
    }

    /// `{}` or `true`: any value.
    private func isOpen(_ schema: Node) -> Bool {
        schema.mapping?.isEmpty == true || schema.bool == true
    }

    func isNull(_ schema: Node) -> Bool {
        schema["type"]?.string == "null" || (schema["enum"]?.sequence.map { $0.count == 1 && $0[0].isNull } ?? false)
    }

    /// The `type` keyword as a list (`["string"]`, `["string", "integer"]`); `object` or `array`
    /// when only their keywords say so.
    func types(of schema: Node) -> [String] {
        switch schema["type"] {
        case .scalar(let scalar)?: return [scalar.string]
        case .sequence(let types)?: return types.compactMap(\.string)
        default:
            if schema["properties"] != nil || schema["additionalProperties"] != nil { return ["object"] }
            if schema["items"] != nil { return ["array"] }
            return []
        }
    }

    private func jsonType(of schema: Node, depth: Int = 0) -> String? {
        guard depth < 16 else { return nil }  // a reference cycle through unions
        if schema["$ref"] != nil, let key = try? componentKey(schema["$ref"]!.string!, at: "#"), let target = components.first(where: { $0.key == key }) {
            return jsonType(of: withoutNull(target.schema).0, depth: depth + 1)
        }
        if let members = schema["allOf"]?.sequence { return members.count == 1 ? jsonType(of: members[0], depth: depth + 1) : "object" }
        if let alternatives = (schema["oneOf"] ?? schema["anyOf"])?.sequence {
            // A union whose alternatives share one JSON type has it (a discriminated union of objects
            // is an object, which a string beside it is told apart from).
            let kinds = Set(alternatives.filter { !isNull($0) }.map { jsonType(of: $0, depth: depth + 1) ?? "any" })
            return kinds.count == 1 && kinds.first != "any" ? kinds.first : nil
        }
        if let value = schema["const"] ?? (schema["enum"]?.sequence?.first) { return value.isText ? "string" : "integer" }
        let kinds = types(of: schema)
        return kinds.count == 1 ? kinds[0] : nil
    }

    /// The value of `const`, or of a one-value `enum`.
    private func singleValue(_ schema: Node) -> Node? {
        if let value = schema["const"] { return value }
        if let values = schema["enum"]?.sequence, values.count == 1 { return values[0] }
        return nil
    }

    /// The schema a `$ref` names, or the schema itself.
    func resolved(_ schema: Node, at path: String) throws -> Node {
        guard let reference = schema["$ref"]?.string else { return schema }
        let key = try componentKey(reference, at: path)
        return try resolved(components.first { $0.key == key }!.schema, at: path)
    }

    /// `Pet` for `#/components/schemas/Pet`.
    func componentKey(_ reference: String, at path: String) throws -> String {
        let prefix = "#/components/schemas/"
        let key = reference.hasPrefix(prefix) ? String(reference.dropFirst(prefix.count))
            .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") : nil
        guard let key, !key.contains("/"), components.contains(where: { $0.key == key }) else {
            throw GenerationError(path: path, problem: "the reference \"\(reference)\" does not name a schema in #/components/schemas",
                                  fix: "Refer to a whole component schema")
        }
        return key
    }

    /// Refuses the keywords whose meaning Swift types cannot hold.
    private func refuseUnsupported(_ schema: Node, at path: String) throws {
        if let excluded = schema["not"], !SchemaMapper.excludesOnlyNumbers(excluded) {
            throw GenerationError(path: path + "/not", problem: "`not` excludes values, which a Swift type cannot express",
                                  fix: "Describe the allowed values instead (an enum, a oneOf)")
        }
        for keyword in ["if", "then", "else", "dependentSchemas", "dependentRequired"] where schema[keyword] != nil {
            throw GenerationError(path: path + "/" + keyword, problem: "conditional schemas (`\(keyword)`) choose a shape by value, which a Swift type cannot follow",
                                  fix: "Use oneOf with a discriminator for shapes that depend on a value")
        }
        if schema["patternProperties"] != nil {
            throw GenerationError(path: path + "/patternProperties", problem: "`patternProperties` types keys by pattern, which a struct or a dictionary cannot express",
                                  fix: "Use additionalProperties (a dictionary) or list the properties")
        }
    }

    /// A schema's description as DocC lines. (Titles are left out: FastAPI's repeat the name,
    /// `Admitted At` for `admitted_at`.)
    static func documentation(of schema: Node) -> [String] {
        var lines: [String] = []
        if let description = schema["description"]?.string {
            lines += description.documentationLines
        }
        if schema["deprecated"]?.bool == true { lines += lines.isEmpty ? ["Deprecated."] : ["", "Deprecated."] }
        return lines
    }

    // MARK: - References

    /// The components `node` refers to, directly or through other components (and through
    /// `#/components/parameters`, `requestBodies` and `responses`, whose targets are read in `root`).
    func referencedComponents(of node: Node, root: Node) -> Set<String> {
        var found = Set<String>()
        var pending = [node]
        var seenOther = Set<String>()
        while let next = pending.popLast() {
            switch next {
            case .mapping(let mapping):
                if let reference = mapping["$ref"]?.string {
                    if let key = try? componentKey(reference, at: "#") {
                        if found.insert(key).inserted, let target = components.first(where: { $0.key == key }) { pending.append(target.schema) }
                    } else if reference.hasPrefix("#/components/"), seenOther.insert(reference).inserted {
                        let parts = reference.dropFirst(2).split(separator: "/").map(String.init)
                        if parts.count == 3, let target = root["components"]?[parts[1]]?[parts[2]] { pending.append(target) }
                    }
                }
                pending += mapping.map(\.value)
            case .sequence(let sequence):
                pending += sequence
            default:
                break
            }
        }
        return found
    }

    // MARK: - Recursion

    /// Components that hold themselves other than through a list or a dictionary: a struct cannot
    /// (it would have infinite size), so they are written as final classes.
    private func recursiveComponents() -> Set<String> {
        var edges: [String: Set<String>] = [:]
        for component in components { edges[component.key] = directReferences(in: component.schema) }
        var result = Set<String>()
        for component in components {
            var seen = Set<String>()
            var stack = Array(edges[component.key] ?? [])
            while let next = stack.popLast() {
                if next == component.key { result.insert(next); break }
                if seen.insert(next).inserted { stack += edges[next] ?? [] }
            }
        }
        return result
    }

    /// The components a schema holds by value: through properties, `allOf` and union alternatives,
    /// not through arrays or dictionaries (which store their elements elsewhere).
    private func directReferences(in schema: Node) -> Set<String> {
        var found = Set<String>()
        if let reference = schema["$ref"]?.string, let key = try? componentKey(reference, at: "#") { found.insert(key) }
        for key in ["allOf", "anyOf", "oneOf"] {
            for member in schema[key]?.sequence ?? [] { found.formUnion(directReferences(in: member)) }
        }
        for (_, property) in schema["properties"]?.mapping ?? [:] { found.formUnion(directReferences(in: property)) }
        return found
    }
}

extension String {
    /// The text as DocC comment lines: one per line, without trailing spaces.
    var documentationLines: [String] {
        // Every kind of line break: CR LF is one Character, which a split at "\n" would keep.
        split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            var text = String(line)
            while text.last == " " || text.last == "\t" { text.removeLast() }
            return text
        }
    }
}

extension Node {
    /// Whether this is the scalar `null` (or `~`).
    var isNull: Bool { null != nil }
    /// Whether this is a string scalar (quoted, or plain text that reads as no other type).
    var isText: Bool { tag.description == "tag:yaml.org,2002:str" }
}
#endif
