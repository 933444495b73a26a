/// One event of a `text/event-stream`, as the WHATWG HTML standard's "event stream
/// interpretation" dispatches it.
struct RawServerSentEvent: Equatable, Sendable {
    /// The event type: the `event` field, or `"message"` without one.
    var type: String
    /// The `data` lines joined with `\n`.
    var data: String
    /// The last event ID at dispatch: the latest `id` field, which persists across events.
    var lastEventID: String
}

/// Parses a `text/event-stream` incrementally: bytes go in as the network delivers them, split at any
/// byte (inside a line, a UTF-8 sequence or a CRLF), and complete events come out.
///
/// It follows the WHATWG HTML standard, §9.2.6: a leading UTF-8 BOM is skipped; lines end with CRLF,
/// LF or CR; a blank line dispatches; `:` starts a comment; one space after the colon is dropped;
/// `data` lines are joined with `\n`; an `id` containing NUL is ignored; `retry` counts only when it is
/// all ASCII digits; unknown fields are ignored; an event with no data is not dispatched; an event not
/// ended by a blank line when the stream ends is dropped.
///
/// A hostile server cannot make it hold unbounded memory: a line, or an event's data, longer than
/// `maximumEventSize` bytes is an error.
struct ServerSentEventParser: Sendable {
    /// Why the stream cannot be read further.
    struct Overflow: Error, Equatable {
        let limit: Int
    }

    /// The most bytes one line, or one event's data, may hold.
    let maximumEventSize: Int
    /// The reconnection time the server asked for with `retry`, in milliseconds.
    private(set) var reconnectionTime: Int?
    /// The last event ID, which persists across events (and reconnections): the `id` of the last
    /// event dispatched (a blank line), not of a half-read one.
    private(set) var lastEventID = ""
    /// What `id` lines have set so far; it becomes ``lastEventID`` when an event is dispatched.
    private var idBuffer = ""

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    /// Whether the stream's first bytes have been seen (a BOM is skipped only there).
    private var started = false
    private var bomBytesSeen = 0
    /// Whether the previous byte was a CR, so that an LF right after it ends nothing more.
    private var afterCR = false

    init(maximumEventSize: Int = 1 << 20, lastEventID: String = "") {
        self.maximumEventSize = maximumEventSize
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Forgets a half-read event, as a reconnection does: the new stream starts afresh (a BOM may
    /// begin it again), while the last event ID and the reconnection time carry over.
    mutating func startNewConnection() {
        let retry = reconnectionTime
        self = ServerSentEventParser(maximumEventSize: maximumEventSize, lastEventID: lastEventID)
        reconnectionTime = retry
    }

    /// Feeds `bytes` and returns the events they complete, in order.
    mutating func consume(_ bytes: some Sequence<UInt8>) throws(Overflow) -> [RawServerSentEvent] {
        var events: [RawServerSentEvent] = []
        for byte in bytes {
            if !started {
                // The BOM EF BB BF, possibly split across chunks; anything else starts the stream.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if byte == bom[bomBytesSeen] {
                    bomBytesSeen += 1
                    if bomBytesSeen == bom.count { started = true }
                    continue
                }
                started = true
                let partial = bom.prefix(bomBytesSeen)
                bomBytesSeen = 0
                for earlier in partial { try take(earlier, into: &events) }
            }
            try take(byte, into: &events)
        }
        return events
    }

    private mutating func take(_ byte: UInt8, into events: inout [RawServerSentEvent]) throws(Overflow) {
        switch byte {
        case UInt8(ascii: "\n"):
            if afterCR {
                afterCR = false  // the LF of a CRLF: the line has ended already
                return
            }
            try endLine(into: &events)
        case UInt8(ascii: "\r"):
            afterCR = true
            try endLine(into: &events)
        default:
            afterCR = false
            guard line.count < maximumEventSize else { throw Overflow(limit: maximumEventSize) }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [RawServerSentEvent]) throws(Overflow) {
        defer { line.removeAll(keepingCapacity: true) }
        guard let first = line.first else {
            if let event = dispatch() { events.append(event) }
            return
        }
        if first == UInt8(ascii: ":") { return }  // a comment
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count + 1 <= maximumEventSize else { throw Overflow(limit: maximumEventSize) }
            if hasData { data.append(UInt8(ascii: "\n")) }
            data += value
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               let milliseconds = Int(String(decoding: value, as: UTF8.self)) {  // past Int.max: ignored
                reconnectionTime = milliseconds
            }
        default:
            break  // unknown fields are ignored
        }
    }

    private mutating func dispatch() -> RawServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        lastEventID = idBuffer  // even for a blank line that ends no event, as the standard says
        guard hasData else { return nil }
        return RawServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self),
            lastEventID: lastEventID)
    }
}
