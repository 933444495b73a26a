import EndpointKit
import EndpointKitContract
import Foundation

/// JSON that EndpointKit wrote for another API (a tool definition, a `response_format`), which
/// encodes as itself inside any `Encodable` request: its keys stay as written whatever the
/// encoder's key strategy, so `additionalProperties` never becomes `additional_properties`.
///
/// ```swift
/// struct ChatRequest: Encodable {
///     let model: String
///     let tools: [ToolDefinition]        // or RawJSON values
/// }
/// ```
public struct RawJSON: Encodable, Sendable, CustomStringConvertible {
    package let value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }

    /// The JSON text, compact.
    ///
    /// ```swift
    /// try format.json.write(to: URL(fileURLWithPath: "format.json"))
    /// ```
    public var json: Data { Data(value.jsonText().utf8) }

    /// The JSON text, indented.
    public var description: String { value.jsonText(prettyPrinted: true) }

    /// Encodes the JSON as it is. Objects go through dictionaries, whose keys no key strategy
    /// changes (verified with swift-foundation's `JSONEncoder`); their order is the encoder's.
    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
