import Foundation

/// Any JSON value, for the parts of a payload whose shape is open: an OpenAPI `{}` schema, a
/// `metadata` object, a tool's arguments.
///
/// Objects keep their members in order, and numbers keep their text, so `UInt64.max` or
/// `0.1` is never rounded on the way through.
///
/// ```swift
/// nonisolated struct Event: Codable, Sendable {
///     let kind: String
///     let payload: JSONValue                     // whatever the server sends
/// }
/// let event = Event(kind: "note", payload: ["text": "hi", "tags": ["a", "b"], "count": 2])
/// print(event.payload["text"]?.stringValue ?? "")   // hi
/// ```
///
/// Decoding reads any JSON; an object's members come back sorted by key, since `Decoder` does not
/// tell their order. Encoding writes a number's text as a JSON number: integers exactly, other
/// numbers as the nearest `Double`. No key strategy renames an object's members either way.
public indirect enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (`42`, `-0.5`, `1e-9`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object([Member])

    /// One key and its value in an object.
    ///
    /// ```swift
    /// let value = JSONValue.object([JSONValue.Member(key: "id", value: .integer(7))])
    /// ```
    public struct Member: Hashable, Sendable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// A member named `key`.
        ///
        /// ```swift
        /// let member = JSONValue.Member(key: "id", value: 7)
        /// ```
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An integer as a JSON number.
    ///
    /// ```swift
    /// let size = JSONValue.integer(UInt64.max)   // 18446744073709551615, exactly
    /// ```
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// An object from pairs in the order given.
    ///
    /// ```swift
    /// let error = JSONValue.object(["code": "E1", "retry": false])
    /// ```
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    /// The value of `key` when this is an object that has it; setting `nil` removes the member.
    ///
    /// ```swift
    /// var value: JSONValue = ["a": 1]
    /// value["b"] = true          // {"a":1,"b":true}
    /// ```
    public subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
            self = .object(members)
        }
    }

    /// The text when this is a string.
    ///
    /// ```swift
    /// JSONValue.string("a").stringValue   // "a"
    /// ```
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value when this is `true` or `false`.
    ///
    /// ```swift
    /// JSONValue.bool(true).boolValue   // true
    /// ```
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The number as the nearest `Double` when this is a number.
    ///
    /// ```swift
    /// JSONValue.number("0.5").doubleValue   // 0.5
    /// ```
    public var doubleValue: Double? {
        if case .number(let text) = self { Double(text) } else { nil }
    }

    /// The elements when this is an array.
    ///
    /// ```swift
    /// JSONValue.array([1, 2]).arrayValue?.count   // 2
    /// ```
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The members, in order, when this is an object.
    ///
    /// ```swift
    /// let keys = value.objectMembers?.map(\.key) ?? []
    /// ```
    public var objectMembers: [Member]? {
        if case .object(let members) = self { members } else { nil }
    }
}

// MARK: - Reading and writing with Codable

extension JSONValue: Codable {
    /// Reads any JSON value. An object's keys come back sorted, since `Decoder` does not keep their
    /// order.
    ///
    /// ```swift
    /// let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"b":1,"a":[true,null]}"#.utf8))
    /// ```
    public init(from decoder: any Decoder) throws {
        // Objects are read as `[String: JSONValue]`, which no key strategy changes: a server
        // decoder that converts snake_case must not rename the members of an open object.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? single.decode(Int64.self) {
            self = .integer(integer)
        } else if let integer = try? single.decode(UInt64.self) {
            self = .integer(integer)
        } else if let number = try? single.decode(Double.self) {
            self = .number(JSONValue.text(of: number))
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else if let elements = try? single.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            let members = try single.decode([String: JSONValue].self)
            self = .object(members.sorted { $0.key < $1.key }.map { Member(key: $0.key, value: $0.value) })
        }
    }

    /// Writes the value, numbers as JSON numbers. Objects are written as `[String: JSONValue]`, so
    /// their keys stay as they are whatever the encoder's key strategy (and their order is the
    /// encoder's). A number whose text is not one (`.number("abc")`) fails with `EncodingError`.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(JSONValue.object(["a": 1]))   // {"a":1}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        if case .array(let elements) = self {
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
            return
        }
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .number(let text):
            if let integer = Int64(text) {
                try single.encode(integer)
            } else if let integer = UInt64(text) {
                try single.encode(integer)
            } else if let number = Double(text), number.isFinite {
                try single.encode(number)
            } else {
                throw EncodingError.invalidValue(text, EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "\"\(text)\" is not a JSON number"))
            }
        case .string(let text): try single.encode(text)
        case .array: break  // an unkeyed container, above
        case .object(let members):
            try single.encode(Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The JSON text of a finite number: `2` rather than `2.0`.
    package static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// `null`: `let value: JSONValue = nil`.
    public init(nilLiteral: ()) { self = .null }
    /// `true` or `false`: `let value: JSONValue = true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number: `let value: JSONValue = 42`.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A number: `let value: JSONValue = 0.5`.
    public init(floatLiteral value: Double) { self = .number(JSONValue.text(of: value)) }
    /// A string: `let value: JSONValue = "text"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array: `let value: JSONValue = [1, "two", nil]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, members in the order written: `let value: JSONValue = ["id": 7, "name": "Rex"]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member(key: $0.0, value: $0.1) })
    }
}
