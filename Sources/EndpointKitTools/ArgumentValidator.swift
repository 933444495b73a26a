import EndpointKit
import EndpointKitContract
import Foundation

/// Checks a model's arguments against the tool's own JSON Schema, at every depth, before they
/// are decoded: what the decoder would silently drop (an unknown field in a nested object, a list
/// element, a `@Body` value) or refuse with a vague message (`42.5` for an `Int`) is refused here
/// with the field's path and what it accepts.
///
/// It reads the keywords EndpointKit's schemas and `CustomJSONSchema` builders write: `$ref`
/// (into `$defs`), `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `const`, `anyOf`/`oneOf`, the numeric bounds, `minLength`/`maxLength`, `minItems`/`maxItems`
/// and `uniqueItems`. An object with `properties` and no `additionalProperties` is closed: the
/// type reads only those keys, so any other is a mistake the call would hide. Formats are left to
/// the decoder, which checks them with the app's own strategies.
struct ArgumentValidator {
    let definitions: [String: JSONValue]

    init(schema: JSONValue) {
        var definitions: [String: JSONValue] = [:]
        if case .object(let members)? = schema["$defs"] {
            for member in members { definitions[member.key] = member.value }
        }
        self.definitions = definitions
    }

    /// Throws the first problem found, as a sentence for the model.
    func validate(_ value: JSONValue, against schema: JSONValue, at path: [JSONParser.PathComponent] = []) throws(JSONParser.Failure) {
        try check(value, schema, path, references: 0)
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: [JSONParser.PathComponent], references: Int) throws(JSONParser.Failure) {
        func fail(_ problem: String) -> JSONParser.Failure {
            JSONParser.Failure(message: path.isEmpty ? "the arguments \(problem)" : "the field \"\(JSONParser.text(of: path))\" \(problem)")
        }
        guard case .object = schema else { return }  // `true` or anything unknown: accepts all
        if let reference = schema["$ref"]?.stringValue {
            let name = String(reference.split(separator: "/").last ?? "")
            guard references < 64, let target = definitions[name] else { return }
            return try check(value, target, path, references: references + 1)
        }
        if let options = (schema["anyOf"] ?? schema["oneOf"])?.arrayValue {
            var failures: [JSONParser.Failure] = []
            for option in options {
                do throws(JSONParser.Failure) {
                    try check(value, option, path, references: references)
                } catch {
                    failures.append(error)
                    continue
                }
                break
            }
            if failures.count == options.count {
                // With one form besides null, that form's own message is the most precise.
                let forms = options.indices.filter { options[$0] != .object(["type": .string("null")]) }
                if forms.count == 1 { throw failures[forms[0]] }
                throw fail("matches none of the forms it may take (\(describe(options))), not \(snippet(value))")
            }
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(where: { same($0, value) }) {
            throw fail("must be one of \(allowed.map { $0.jsonText() }.joined(separator: ", ")), not \(snippet(value))")
        }
        if let constant = schema["const"], !same(constant, value) {
            throw fail("must be \(constant.jsonText()), not \(snippet(value))")
        }
        let types = typeNames(schema["type"])
        if !types.isEmpty, !types.contains(where: { matches(value, type: $0) }) {
            if types.contains("integer"), case .number(let text) = value {
                throw fail("must be an integer\(bounds(schema, defaultFormat: "int64")), not \(text)")
            }
            throw fail("must be \(types.filter { $0 != "null" }.map(Self.article).joined(separator: " or "))\(types.contains("null") ? " or null" : ""), not \(snippet(value))")
        }
        // After the type: a value of another type (null for a number) is named as such, not as
        // one the exclusion below happens to match.
        if let excluded = schema["not"] {
            let matchesExcluded: Bool
            do throws(JSONParser.Failure) {
                try check(value, excluded, path, references: references)
                matchesExcluded = true
            } catch {
                matchesExcluded = false
            }
            if matchesExcluded {
                // The one `not` derived schemas write: a real number's magnitudes that round to zero.
                if let smallest = excluded["exclusiveMaximum"].flatMap(decimal) {
                    throw fail("must be 0 or at least \(smallest.text) in magnitude (smaller rounds to zero), not \(snippet(value))")
                }
                throw fail("must not match \(excluded.jsonText()), not \(snippet(value))")
            }
        }
        switch value {
        case .number(let text):
            try checkNumber(text, schema, types: types, fail: fail)
        case .string(let text):
            let count = text.count
            if let minimum = integer(schema["minLength"]), count < minimum { throw fail("must have at least \(minimum) characters") }
            if let maximum = integer(schema["maxLength"]), count > maximum { throw fail("must have at most \(maximum) characters") }
        case .array(let elements):
            if let minimum = integer(schema["minItems"]), elements.count < minimum { throw fail("must have at least \(minimum) elements") }
            if let maximum = integer(schema["maxItems"]), elements.count > maximum { throw fail("must have at most \(maximum) elements") }
            if schema["uniqueItems"] == .bool(true), Set(elements).count != elements.count { throw fail("must not repeat an element") }
            if let items = schema["items"] {
                for (position, element) in elements.enumerated() {
                    try check(element, items, path + [.index(position)], references: references)
                }
            }
        case .object(let members):
            try checkObject(members, schema, path, references: references, fail: fail)
        case .null, .bool:
            break
        }
    }

    private func checkObject(
        _ members: [JSONValue.Member], _ schema: JSONValue, _ path: [JSONParser.PathComponent], references: Int,
        fail: (String) -> JSONParser.Failure
    ) throws(JSONParser.Failure) {
        var properties: [String: JSONValue] = [:]
        var names: [String] = []
        if case .object(let declared)? = schema["properties"] {
            for property in declared {
                properties[property.key] = property.value
                names.append(property.key)
            }
        }
        let additional = schema["additionalProperties"]
        for member in members {
            let memberPath = path + [.key(member.key)]
            if let property = properties[member.key] {
                try check(member.value, property, memberPath, references: references)
            } else if let additional, additional != .bool(false) {
                try check(member.value, additional, memberPath, references: references)
            } else if additional == .bool(false) || schema["properties"] != nil {
                let known = names.map { "\"\($0)\"" }.joined(separator: ", ")
                let owner = path.isEmpty ? "the fields are" : "the fields of \"\(JSONParser.text(of: path))\" are"
                throw JSONParser.Failure(message: "unknown field \"\(JSONParser.text(of: memberPath))\"; \(names.isEmpty ? "it takes no fields" : "\(owner) \(known)")")
            }
        }
        for required in schema["required"]?.arrayValue ?? [] {
            if let name = required.stringValue, !members.contains(where: { $0.key == name }) {
                throw JSONParser.Failure(message: "the field \"\(JSONParser.text(of: path + [.key(name)]))\" is required but missing")
            }
        }
    }

    // MARK: - Numbers

    private func checkNumber(_ text: String, _ schema: JSONValue, types: [String], fail: (String) -> JSONParser.Failure) throws(JSONParser.Failure) {
        guard let number = DecimalText(text) else { return }
        let isInteger = types.contains("integer") && !types.contains("number")
        if isInteger, !number.isInteger {
            throw fail("must be an integer\(bounds(schema, defaultFormat: "int64")), not \(text)")
        }
        // The widest a Swift value of the format can hold, then the schema's own bounds.
        let format = schema["format"]?.stringValue ?? (isInteger ? "int64" : "double")
        if let limit = Self.formatLimits[format] {
            if number < limit.minimum || limit.maximum < number {
                throw fail("must be \(isInteger ? "an integer" : "a number")\(bounds(schema, defaultFormat: format)), not \(text)")
            }
        }
        let minimum = schema["minimum"].flatMap(decimal)
        let maximum = schema["maximum"].flatMap(decimal)
        let exclusiveMinimum = schema["exclusiveMinimum"].flatMap(decimal)
        let exclusiveMaximum = schema["exclusiveMaximum"].flatMap(decimal)
        if let minimum, number < minimum { throw fail("must be \(isInteger ? "an integer" : "a number")\(bounds(schema, defaultFormat: format)), not \(text)") }
        if let maximum, maximum < number { throw fail("must be \(isInteger ? "an integer" : "a number")\(bounds(schema, defaultFormat: format)), not \(text)") }
        if let exclusiveMinimum, !(exclusiveMinimum < number) { throw fail("must be greater than \(exclusiveMinimum.text), not \(text)") }
        if let exclusiveMaximum, !(number < exclusiveMaximum) { throw fail("must be less than \(exclusiveMaximum.text), not \(text)") }
    }

    /// The largest and smallest values of each format a Swift number can have.
    static let formatLimits: [String: (minimum: DecimalText, maximum: DecimalText)] = [
        "int32": (DecimalText("-2147483648")!, DecimalText("2147483647")!),
        "int64": (DecimalText("-9223372036854775808")!, DecimalText("18446744073709551615")!),
        "float": (DecimalText("-3.4028235e+38")!, DecimalText("3.4028235e+38")!),
        "double": (DecimalText("-1.7976931348623157e+308")!, DecimalText("1.7976931348623157e+308")!),
    ]

    /// ` between -5 and 5`, from the schema's bounds or the format's.
    private func bounds(_ schema: JSONValue, defaultFormat: String) -> String {
        let format = schema["format"]?.stringValue ?? defaultFormat
        let low = schema["minimum"].flatMap(decimal)?.text ?? Self.formatLimits[format]?.minimum.text
        let high = schema["maximum"].flatMap(decimal)?.text ?? Self.formatLimits[format]?.maximum.text
        switch (low, high) {
        case let (low?, high?): return " between \(low) and \(high)"
        case let (low?, nil): return " of at least \(low)"
        case let (nil, high?): return " of at most \(high)"
        case (nil, nil): return ""
        }
    }

    private func decimal(_ value: JSONValue) -> DecimalText? {
        if case .number(let text) = value { DecimalText(text) } else { nil }
    }

    private func integer(_ value: JSONValue?) -> Int? {
        if case .number(let text)? = value { Int(text) } else { nil }
    }

    // MARK: - Types

    private func typeNames(_ type: JSONValue?) -> [String] {
        switch type {
        case .string(let name)?: [name]
        case .array(let names)?: names.compactMap(\.stringValue)
        default: []
        }
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let text)): DecimalText(text)?.isInteger == true
        default: false
        }
    }

    /// Whether two JSON values are equal as JSON: numbers by value (`1.0` is `1`).
    private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b, let x = DecimalText(x), let y = DecimalText(y) { return x == y }
        return a == b
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "integer": "an integer"
        case "object": "an object"
        case "array": "an array"
        case "boolean": "true or false"
        default: "a \(type)"
        }
    }

    private func describe(_ options: [JSONValue]) -> String {
        options.map { option in
            if let reference = option["$ref"]?.stringValue { return String(reference.split(separator: "/").last ?? "") }
            return typeNames(option["type"]).joined(separator: " or ")
        }.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    private func snippet(_ value: JSONValue) -> String {
        let text = value.jsonText()
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}

/// A JSON number's exact value, compared without rounding: digits times a power of ten.
///
/// `Double` would round `9223372036854775808` to `Int64.max + 1` and call it in range; this keeps
/// every digit, so bounds are checked exactly whatever the text's size (`1e400`, `-0.0`).
struct DecimalText: Comparable, Sendable {
    let isNegative: Bool
    /// The significant digits, without leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    /// The power of ten the digits are multiplied by.
    let exponent: Int
    /// The text it was read from.
    let text: String

    init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var seenDigit = false
        var afterPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !afterPoint else { return nil }
                afterPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            seenDigit = true
            if afterPoint { exponent -= 1 }
            if digits.isEmpty && byte == UInt8(ascii: "0") { continue }  // leading zeros
            digits.append(byte - UInt8(ascii: "0"))
        }
        guard seenDigit else { return nil }
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            guard let value = Self.exponent(bytes, as: Int.self) else { return nil }
            exponent += value
        }
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.isNegative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
        self.text = text
    }

    /// The exponent written after `e` (`-12`, `+3`, `400`), at most a billion in magnitude: past
    /// that only the size matters. Generic so that tests can run it with `Int32`, the width of
    /// `Int` on a watch, where a billion times ten would trap.
    static func exponent<Integer: FixedWidthInteger & SignedInteger>(_ text: Substring.UTF8View.SubSequence, as: Integer.Type) -> Integer? {
        var bytes = text
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() } else if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return nil }
        var value: Integer = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            // Below 10^8 another digit keeps it under 10^9; from there on it stays 10^9.
            value = value < 100_000_000 ? value * 10 + Integer(byte - UInt8(ascii: "0")) : 1_000_000_000
        }
        return negative ? -value : value
    }

    var isInteger: Bool { exponent >= 0 }

    static func == (a: DecimalText, b: DecimalText) -> Bool {
        a.isNegative == b.isNegative && a.digits == b.digits && a.exponent == b.exponent
    }

    static func < (a: DecimalText, b: DecimalText) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        let magnitude = compareMagnitude(a, b)
        return a.isNegative ? magnitude > 0 : magnitude < 0
    }

    /// -1, 0 or 1 as |a| is less than, equal to or greater than |b|.
    private static func compareMagnitude(_ a: DecimalText, _ b: DecimalText) -> Int {
        if a.digits.isEmpty || b.digits.isEmpty { return a.digits.isEmpty ? (b.digits.isEmpty ? 0 : -1) : 1 }
        // The position of the leading digit decides first.
        let aTop = a.digits.count + a.exponent
        let bTop = b.digits.count + b.exponent
        if aTop != bTop { return aTop < bTop ? -1 : 1 }
        for position in 0..<max(a.digits.count, b.digits.count) {
            let x = position < a.digits.count ? a.digits[position] : 0
            let y = position < b.digits.count ? b.digits[position] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }
}
