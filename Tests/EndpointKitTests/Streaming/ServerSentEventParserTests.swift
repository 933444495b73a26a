@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Testing

/// The event stream interpretation of the WHATWG HTML standard (§9.2.6), fed whole and split at
/// every byte.
@Suite struct ServerSentEventParserTests {
    typealias Event = RawServerSentEvent

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let stream: String
        let events: [Event]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // The standard's examples.
        Case(name: "stock ticker: data lines joined, a final unterminated event dropped",
             stream: "data: YHOO\ndata: +2\ndata: 10\n\n",
             events: [Event(type: "message", data: "YHOO\n+2\n10", lastEventID: "")]),
        Case(name: "comments, ids that persist, an empty id resets",
             stream: ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n",
             events: [Event(type: "message", data: "first event", lastEventID: "1"),
                      Event(type: "message", data: "second event", lastEventID: "")]),
        Case(name: "empty data lines count; an event without data is not dispatched",
             stream: "data\n\ndata\ndata\n\ndata:\n",
             events: [Event(type: "message", data: "", lastEventID: ""),
                      Event(type: "message", data: "\n", lastEventID: "")]),
        Case(name: "one leading space is dropped, not two",
             stream: "data:test\n\ndata: test\n\ndata:  test\n\n",
             events: [Event(type: "message", data: "test", lastEventID: ""),
                      Event(type: "message", data: "test", lastEventID: ""),
                      Event(type: "message", data: " test", lastEventID: "")]),
        // Event types, line ends, BOM, unknown fields, NUL in id.
        Case(name: "event types reset after each event",
             stream: "event: add\ndata: 1\n\ndata: 2\n\nevent: remove\n\ndata: 3\n\n",
             events: [Event(type: "add", data: "1", lastEventID: ""),
                      Event(type: "message", data: "2", lastEventID: ""),
                      Event(type: "message", data: "3", lastEventID: "")]),
        Case(name: "CR, LF and CRLF line ends",
             stream: "data: a\r\rdata: b\r\n\r\ndata: c\n\r\ndata: d\r\n\n",
             events: [Event(type: "message", data: "a", lastEventID: ""),
                      Event(type: "message", data: "b", lastEventID: ""),
                      Event(type: "message", data: "c", lastEventID: ""),
                      Event(type: "message", data: "d", lastEventID: "")]),
        Case(name: "a leading BOM is skipped, a later one is data",
             stream: "\u{FEFF}data: \u{FEFF}x\n\n",
             events: [Event(type: "message", data: "\u{FEFF}x", lastEventID: "")]),
        Case(name: "unknown fields and a field named with a space are ignored",
             stream: "foo: bar\ndata : no\nDATA: no\ndata: yes\n\n",
             events: [Event(type: "message", data: "yes", lastEventID: "")]),
        Case(name: "an id with NUL is ignored",
             stream: "id: 7\ndata: a\n\nid: 8\u{0}9\ndata: b\n\n",
             events: [Event(type: "message", data: "a", lastEventID: "7"),
                      Event(type: "message", data: "b", lastEventID: "7")]),
        Case(name: "OpenAI-style chunks and the [DONE] sentinel are ordinary events here",
             stream: "data: {\"a\":1}\n\ndata: [DONE]\n\n",
             events: [Event(type: "message", data: "{\"a\":1}", lastEventID: ""),
                      Event(type: "message", data: "[DONE]", lastEventID: "")]),
        Case(name: "UTF-8 text survives any split",
             stream: "data: Grüße 世界 🎉\n\n",
             events: [Event(type: "message", data: "Grüße 世界 🎉", lastEventID: "")]),
    ]

    @Test(arguments: cases)
    func `a stream fed whole gives the standard's events`(example: Case) throws {
        var parser = ServerSentEventParser()
        #expect(try parser.consume(Array(example.stream.utf8)) == example.events)
    }

    @Test(arguments: cases)
    func `a stream split at any byte gives the same events`(example: Case) throws {
        let bytes = Array(example.stream.utf8)
        for split in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = try parser.consume(bytes[..<split]) + parser.consume(bytes[split...])
            #expect(events == example.events, "split at \(split)")
        }
        var parser = ServerSentEventParser()
        var oneByOne: [Event] = []
        for byte in bytes { oneByOne += try parser.consume([byte]) }
        #expect(oneByOne == example.events)
    }

    @Test func `retry counts only when it is all digits`() throws {
        var parser = ServerSentEventParser()
        _ = try parser.consume(Array("retry: 2500\n\nretry: 1x\nretry: -5\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == 2500)
        _ = try parser.consume(Array("retry: 99999999999999999999999\n\n".utf8))
        #expect(parser.reconnectionTime == 2500)
    }

    @Test func `an endless line or event is an error, not unbounded memory`() throws {
        var parser = ServerSentEventParser(maximumEventSize: 64)
        #expect(throws: ServerSentEventParser.Overflow(limit: 64)) {
            try parser.consume(Array(repeating: UInt8(ascii: "a"), count: 65))
        }
        var lines = ServerSentEventParser(maximumEventSize: 64)
        #expect(throws: ServerSentEventParser.Overflow(limit: 64)) {
            for _ in 0..<10 { _ = try lines.consume(Array("data: 0123456789\n".utf8)) }
        }
    }

    @Test func `the last event ID carries over from a previous connection`() throws {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(try parser.consume(Array("data: x\n\n".utf8)) == [Event(type: "message", data: "x", lastEventID: "41")])
    }
}
