#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
/// Writes declarations as Swift source, four spaces a level, in the order given.
struct SwiftWriter {
    private(set) var text = ""
    private var indent = ""
    /// `"public "` when the output is a library module an app imports, else `""` (internal).
    var access = ""

    /// A writer whose declarations have `access` (`"public "` or `""`).
    init(access: String = "") {
        self.access = access
    }

    /// `nonisolated` on a type keeps it usable in a main-actor app target; types nested in a
    /// `nonisolated struct` are nonisolated already, types nested in `struct X: nonisolated Endpoint`
    /// are not and say it.
    mutating func write(_ declaration: Declaration, saysNonisolated: Bool = true) {
        for line in declaration.documentation { self.line(line.isEmpty ? "///" : "/// " + line) }
        let isolation = saysNonisolated ? "nonisolated " : ""
        let coding = declaration.isReadOnly ? "Decodable" : "Codable"
        switch declaration.kind {
        case .alias(let type):
            line("\(access)typealias \(declaration.name) = \(type)")
        case .valueEnum(let rawType, let cases):
            open("\(isolation)\(access)enum \(declaration.name): \(rawType), \(coding), Sendable, CaseIterable {")
            for item in cases {
                let raw = rawType == "String" ? SwiftWriter.literal(item.value) : item.value
                line(item.name == item.value && rawType == "String" ? "case \(SwiftNames.escaped(item.name))" : "case \(SwiftNames.escaped(item.name)) = \(raw)")
            }
            writeNested(declaration.nested, saysNonisolated: false)
            close()
        case .union(let shape):
            open("\(isolation)\(access)enum \(declaration.name): \(coding), Sendable {")
            for alternative in shape.alternatives { line("case \(SwiftNames.escaped(alternative.caseName))(\(alternative.type))") }
            writeUnionCoding(shape, name: declaration.name, encodes: !declaration.isReadOnly)
            writeNested(declaration.nested, saysNonisolated: false)
            close()
        case .structure(let shape):
            writeStructure(declaration, shape: shape, isolation: isolation)
        }
    }

    /// Writes `declarations` one after another, a blank line between two.
    mutating func write(_ declarations: [Declaration]) {
        for (index, declaration) in declarations.enumerated() {
            if index > 0 { blank() }
            write(declaration)
        }
    }

    // MARK: - Structs, classes and endpoints

    private mutating func writeStructure(_ declaration: Declaration, shape: StructShape, isolation: String) {
        if let endpoint = shape.endpoint {
            let conformances = endpoint.conformances.map { endpoint.hasWrappers ? "nonisolated " + $0 : $0 }.joined(separator: ", ")
            open("\(endpoint.hasWrappers ? "" : isolation)\(access)struct \(declaration.name): \(conformances) {")
            line("\(access)var endpoint: Restful { \(endpoint.restful) }")
        } else if shape.isClass {
            open("\(isolation)\(access)final class \(declaration.name): \(declaration.isReadOnly ? "Decodable" : "Codable"), Sendable {")
        } else {
            open("\(isolation)\(access)struct \(declaration.name): \(declaration.isReadOnly ? "Decodable" : "Codable"), Sendable {")
        }
        for property in shape.properties { writeProperty(property, inClass: shape.isClass) }
        // A class has no memberwise initializer, and a struct's is internal: a public one needs
        // its own, taking what the memberwise one would.
        if shape.isClass || !access.isEmpty { writeInitializer(shape.properties, inClass: shape.isClass) }
        if shape.needsCodingKeys {
            blank()
            open("\(shape.endpoint == nil ? "private " : "")enum CodingKeys: String, CodingKey {")
            for property in shape.properties {
                let key = property.codingKey.map { " = " + SwiftWriter.literal($0) } ?? ""
                line("case \(SwiftNames.escaped(property.name))\(key)")
            }
            close()
        }
        if let endpoint = shape.endpoint, !endpoint.members.isEmpty {
            if !shape.properties.isEmpty { blank() }
            for member in endpoint.members { line(access + member) }
        }
        writeNested(declaration.nested, saysNonisolated: shape.endpoint?.hasWrappers == true)
        close()
    }

    private mutating func writeProperty(_ property: Property, inClass: Bool) {
        for line in property.documentation { self.line(line.isEmpty ? "///" : "/// " + line) }
        let type = property.type + (property.isOptional ? "?" : "")
        let name = SwiftNames.escaped(property.name)
        if let wrapper = property.wrapper {
            let initial = property.defaultValue.map { " = " + $0 } ?? (property.isOptional && wrapper.hasPrefix("@HeaderField") ? " = nil" : "")
            line("\(wrapper) \(access)var \(name): \(type)\(initial)")
        } else if let value = property.defaultValue {
            line("\(access)var \(name): \(type) = \(value)")
        } else if property.isOptional && !inClass || property.isVariable {
            line("\(access)var \(name): \(type)")
        } else {
            line("\(access)let \(name): \(type)")
        }
    }

    /// The initializer a struct's memberwise one would be (for a class, which has none, and for
    /// a public struct, whose memberwise one is internal): a parameter per property, with the
    /// property's default (`nil` for an optional, its value, a wrapper's initial value).
    private mutating func writeInitializer(_ properties: [Property], inClass: Bool) {
        blank()
        let parameters = properties.map { property in
            let type = property.type + (property.isOptional ? "?" : "")
            let initial: String
            if let value = property.defaultValue {
                initial = " = " + value
            } else if property.isOptional {
                initial = " = nil"
            } else {
                initial = ""
            }
            return "\(SwiftNames.escaped(property.name)): \(type)\(initial)"
        }
        open("\(access)init(\(parameters.joined(separator: ", "))) {")
        for property in properties { line("self.\(property.name) = \(SwiftNames.escaped(property.name))") }
        close()
    }

    // MARK: - Unions

    private mutating func writeUnionCoding(_ shape: UnionShape, name: String, encodes: Bool) {
        blank()
        if let tag = shape.tag {
            let key = SwiftNames.escaped(tag.key)
            open("private enum CodingKeys: String, CodingKey {")
            line("case \(key)\(tag.codingKey.map { " = " + SwiftWriter.literal($0) } ?? "")")
            close()
            blank()
            open("\(access)init(from decoder: any Decoder) throws {")
            line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            line("let tag = try container.decode(String.self, forKey: .\(key))")
            line("switch tag {")
            for alternative in shape.alternatives {
                line("case \(alternative.tags.map(SwiftWriter.literal).joined(separator: ", ")): self = try .\(SwiftNames.escaped(alternative.caseName))(\(alternative.type)(from: decoder))")
            }
            line("default:")
            let known = shape.alternatives.flatMap(\.tags).joined(separator: ", ")
            line("    throw DecodingError.dataCorruptedError(forKey: .\(key), in: container, debugDescription: \"\\\"\\(tag)\\\" is none of \(SwiftWriter.escapedText(known))\")")
            line("}")
            close()
            guard encodes else { return }
            blank()
            open("\(access)func encode(to encoder: any Encoder) throws {")
            line("switch self {")
            for alternative in shape.alternatives {
                line("case .\(SwiftNames.escaped(alternative.caseName))(let value): try value.encode(to: encoder)")
            }
            line("}")
            close()
        } else {
            let keyed = shape.alternatives.filter { $0.presentKey != nil }
            if !keyed.isEmpty {
                open("private enum CodingKeys: String, CodingKey {")
                for alternative in keyed {
                    line("case \(SwiftNames.escaped(alternative.presentKey!.name))\(alternative.presentKey!.codingKey.map { " = " + SwiftWriter.literal($0) } ?? "")")
                }
                close()
                blank()
            }
            open("\(access)init(from decoder: any Decoder) throws {")
            line("let container = try decoder.singleValueContainer()")
            let last = shape.alternatives.last
            // With keyed objects, the one object without a key of its own is tried after them.
            let fallback = keyed.isEmpty ? nil : shape.alternatives.first { $0.presentKey == nil && $0.jsonType == "object" }
            for alternative in shape.alternatives where alternative.presentKey == nil && alternative.caseName != fallback?.caseName {
                let caseName = SwiftNames.escaped(alternative.caseName)
                if alternative.caseName == last?.caseName, alternative.jsonType == "object" {
                    line("self = try .\(caseName)(container.decode(\(alternative.type).self))")
                    close()
                    if encodes { writeUnionEncode(shape) }
                    return
                }
                open("if let value = try? container.decode(\(alternative.type).self) {")
                line("self = .\(caseName)(value)")
                line("return")
                close()
            }
            if !keyed.isEmpty {
                // The objects, by the key only one of them has.
                line("let object = try decoder.container(keyedBy: CodingKeys.self)")
                for alternative in keyed {
                    open("if object.contains(.\(SwiftNames.escaped(alternative.presentKey!.name))) {")
                    line("self = try .\(SwiftNames.escaped(alternative.caseName))(container.decode(\(alternative.type).self))")
                    line("return")
                    close()
                }
                let keys = keyed.map { $0.presentKey!.codingKey ?? $0.presentKey!.name }.joined(separator: ", ")
                if let fallback {
                    line("self = try .\(SwiftNames.escaped(fallback.caseName))(container.decode(\(fallback.type).self))")
                } else {
                    line("throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: \"an object with none of the keys \(SwiftWriter.escapedText(keys))\"))")
                }
                close()
                if encodes { writeUnionEncode(shape) }
                return
            }
            let names = shape.alternatives.compactMap(\.jsonType).joined(separator: ", ")
            line("throw DecodingError.typeMismatch(Self.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: \"expected one of: \(names)\"))")
            close()
            if encodes { writeUnionEncode(shape) }
        }
    }

    private mutating func writeUnionEncode(_ shape: UnionShape) {
        blank()
        open("\(access)func encode(to encoder: any Encoder) throws {")
        line("var container = encoder.singleValueContainer()")
        line("switch self {")
        for alternative in shape.alternatives {
            line("case .\(SwiftNames.escaped(alternative.caseName))(let value): try container.encode(value)")
        }
        line("}")
        close()
    }

    // MARK: - Lines

    private mutating func writeNested(_ nested: [Declaration], saysNonisolated: Bool) {
        for declaration in nested {
            blank()
            write(declaration, saysNonisolated: saysNonisolated)
        }
    }

    /// Writes one line. A comment line (`//`, `///`) holds text from the document: any line break
    /// in it (`\n`, `\r`, CR LF, U+2028…) becomes a space, so that the text never reaches the
    /// code around it. Code lines get the document's text only through ``literal(_:)``.
    mutating func line(_ text: String) {
        var text = text
        if text.drop(while: { $0 == " " }).hasPrefix("//"), text.contains(where: \.isNewline) {
            text = String(text.map { $0.isNewline ? " " : $0 })
        }
        self.text += (text.isEmpty ? "" : indent + text) + "\n"
    }

    mutating func blank() { text += "\n" }

    private mutating func open(_ text: String) {
        line(text)
        indent += "    "
    }

    private mutating func close() {
        indent.removeLast(4)
        line("}")
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String { "\"" + escapedText(text) + "\"" }

    /// `text` as the inside of a Swift string literal: quotes, backslashes and control characters escaped.
    static func escapedText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Control characters, and the line and paragraph separators editors break lines at.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
#endif
