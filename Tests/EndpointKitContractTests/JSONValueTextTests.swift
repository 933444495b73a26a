@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTools
import Foundation
import Testing

/// JSON text written byte by byte (the text between escapes in one piece), and read back the same
/// way: every kind of escape, and text with none, come out exactly as before.
@Suite struct JSONValueTextTests {
    /// Each character JSON or YAML needs escaped, between plain ASCII and multi-byte text.
    static let tricky = "a\"b\\c\nd\re\tf\u{1}g\u{1F}h\u{7F}i\u{80}j\u{9F}k\u{A0}l\u{2028}m\u{2029}n\u{FEFF}o é ✓ 😀 \u{2027}\u{FEFE}"

    @Test func `every escape is written exactly, and everything else as it is`() {
        let written = JSONValue.string(Self.tricky).jsonText()
        #expect(written == #""a\"b\\c\nd\re\tf\u0001g\u001Fh\u007Fi\u0080j\u009Fk"# + "\u{A0}" + #"l\u2028m\u2029n\uFEFFo é ✓ 😀 "# + "\u{2027}\u{FEFE}\"")
    }

    @Test func `text with no escape is written whole, at the ends and alone`() {
        #expect(JSONValue.string("").jsonText() == #""""#)
        #expect(JSONValue.string("plain text, 30 branches").jsonText() == #""plain text, 30 branches""#)
        #expect(JSONValue.string("\"").jsonText() == #""\"""#)
        #expect(JSONValue.string("é").jsonText() == "\"é\"")
        // A separator or byte order mark as the last or only character: its bytes end the text.
        #expect(JSONValue.string("x\u{2028}").jsonText() == #""x\u2028""#)
        #expect(JSONValue.string("\u{FEFF}").jsonText() == #""\uFEFF""#)
        #expect(JSONValue.string("x\u{85}").jsonText() == #""x\u0085""#)
    }

    @Test func `objects and arrays are written compact and indented as before`() {
        let value: JSONValue = ["name": "a\"b", "list": [1, "x", nil, true], "empty": [:], "none": []]
        #expect(value.jsonText() == #"{"name":"a\"b","list":[1,"x",null,true],"empty":{},"none":[]}"#)
        #expect(value.jsonText(prettyPrinted: true) == """
            {
              "name": "a\\"b",
              "list": [
                1,
                "x",
                null,
                true
              ],
              "empty": {},
              "none": []
            }
            """)
    }

    @Test func `what is written reads back as the same value, escapes and all`() throws {
        let value: JSONValue = ["text": .string(Self.tricky), "plain": "no escapes here", "mixed": .array([.string("\\u0041 stays text"), .string("tab\there")])]
        #expect(try JSONParser.parse(value.jsonText()) == value)
        // Escapes a writer other than ours uses: `\/`, `\b`, `\f` and `\u` with a surrogate pair.
        #expect(try JSONParser.parse(#""a\/b\bc\fd\u00e9\ud83d\ude00e""#) == .string("a/b\u{8}c\u{C}dé😀e"))
    }
}
