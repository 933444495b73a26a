import EndpointKit
import EndpointKitContract
import Foundation
import Testing

private enum Rating: Decodable, CustomJSONSchema {
    case stars(Int)
    static var jsonSchema: JSONSchema {
        .object([
            "kind": .constant("stars"),
            "stars": .integer(in: 1...5),
            "count": .integer(UInt8.self),
            "price": .number(Float.self),
            "code": .string(pattern: "^[A-Z]{3}$"),
            "tally": .dictionary(of: .integer(Int32.self), keys: .string(pattern: "^[a-z]+$")),
        ], required: ["kind", "stars"], additionalProperties: false)
    }
    static var schemaExample: Rating { .stars(1) }
    init(from decoder: any Decoder) throws { self = .stars(1) }
}

@Suite struct HandWrittenSchemaTests {
    @Test func `hand-written schemas state ranges, closed objects, patterns, constants and dictionary keys`() throws {
        let text = String(decoding: try JSONSchema(for: Rating.self).json(), as: UTF8.self)
        #expect(text == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Rating","type":"object","properties":{"kind":{"const":"stars"},"stars":{"type":"integer","minimum":1,"maximum":5},"count":{"type":"integer","minimum":0,"maximum":255},"price":{"type":"number","format":"float","minimum":-3.4028235e+38,"maximum":3.4028235e+38,"not":{"type":"number","exclusiveMinimum":-1.0e-45,"exclusiveMaximum":1.0e-45,"not":{"const":0}}},"code":{"type":"string","pattern":"^[A-Z]{3}$"},"tally":{"type":"object","propertyNames":{"type":"string","pattern":"^[a-z]+$"},"additionalProperties":{"type":"integer","format":"int32","minimum":-2147483648,"maximum":2147483647}}},"required":["kind","stars"],"additionalProperties":false}"##, "\(text)")
    }
}
