import EndpointKit
import Foundation
import Testing

/// `JSONValue`, the public type for open parts of a payload (an OpenAPI `{}` schema): what it reads
/// and writes through the server's own coders, which convert keys.
@Suite struct JSONValueTests {
    nonisolated struct Event: Codable, Sendable, Equatable {
        let eventKind: String
        let payload: JSONValue
    }

    @Test func anOpenObjectKeepsItsKeysThroughTheServersCoders() throws {
        let json = #"{"event_kind":"note","payload":{"camelCase":1,"snake_case":[true,null,"x"],"nested":{"inner_key":0.5}}}"#
        let event = try APIServer.makeDecoder().decode(Event.self, from: Data(json.utf8))
        #expect(event.eventKind == "note")
        #expect(event.payload == [
            "camelCase": 1,
            "nested": ["inner_key": 0.5],
            "snake_case": [true, nil, "x"],
        ])  // members sorted by key: a decoder does not tell their order

        let encoder = APIServer.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        let written = String(decoding: try encoder.encode(event), as: UTF8.self)
        #expect(written == #"{"event_kind":"note","payload":{"camelCase":1,"nested":{"inner_key":0.5},"snake_case":[true,null,"x"]}}"#)
    }

    @Test func integersKeepEveryDigit() throws {
        let json = #"[18446744073709551615,-9223372036854775808,0.1,1e-9]"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(value == .array([.number("18446744073709551615"), .number("-9223372036854775808"), .number("0.1"), .number("1e-09")]))
        #expect(String(decoding: try JSONEncoder().encode(JSONValue.integer(UInt64.max)), as: UTF8.self) == "18446744073709551615")
    }

    @Test func aNumberThatIsNoNumberIsAnEncodingError() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(JSONValue.array([.number("NaN")])) }
    }

    @Test func accessorsAndTheSubscript() {
        var value: JSONValue = ["a": 1, "b": "text"]
        value["c"] = true
        value["a"] = nil
        #expect(value.objectMembers?.map(\.key) == ["b", "c"])
        #expect(value["b"]?.stringValue == "text")
        #expect(value["c"]?.boolValue == true)
        #expect(JSONValue.number("0.5").doubleValue == 0.5)
        #expect(JSONValue.array([1, 2]).arrayValue?.count == 2)
        #expect(JSONValue.string("x")["a"] == nil)
    }
}
