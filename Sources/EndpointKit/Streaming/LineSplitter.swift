import Foundation

/// Splits bytes that arrive in chunks into lines: LF or CRLF ends a line (the CR is dropped), a
/// chunk may end anywhere, and a line longer than the limit is an error rather than unbounded
/// memory. The text after the last line end is a line too, unless it is empty.
struct LineSplitter: Sendable {
    /// A line grew past the limit before its end arrived.
    struct Overflow: Error, Equatable {
        let limit: Int
    }

    let maximumLength: Int
    private var pending: [UInt8] = []

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Feeds `chunk` and returns the lines it completes.
    mutating func consume(_ chunk: Data) throws(Overflow) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = chunk.startIndex
        while let end = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            pending.append(contentsOf: chunk[start..<end])
            try check()
            lines.append(takeLine())
            start = chunk.index(after: end)
        }
        pending.append(contentsOf: chunk[start...])
        try check()
        return lines
    }

    /// The last line, when the stream ended without a line end after it.
    mutating func finish() -> [UInt8]? {
        guard !pending.isEmpty else { return nil }
        return takeLine()
    }

    /// Fails once the pending line is past the limit; a CR at its end may be the first half of a
    /// CRLF, so it does not count.
    private func check() throws(Overflow) {
        if pending.count - (pending.last == UInt8(ascii: "\r") ? 1 : 0) > maximumLength {
            throw Overflow(limit: maximumLength)
        }
    }

    private mutating func takeLine() -> [UInt8] {
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }
}
