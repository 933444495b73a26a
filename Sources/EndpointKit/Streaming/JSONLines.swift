import Foundation

/// A body of JSON Lines (`application/jsonl`, `application/x-ndjson`): one JSON value per line,
/// each decoded as `Row` as soon as its line has arrived.
///
/// ```swift
/// struct ExportOrders: Endpoint {
///     var endpoint: Restful { Restful(.get, "orders/export") }
///     typealias ReturnPayloadType = JSONLines<Order>
/// }
///
/// for try await order in try await ExportOrders().response {
///     total += order.amount
/// }
/// ```
///
/// Blank lines are skipped. A line that is not a `Row` ends the loop with an ``EndpointError`` of
/// kind ``EndpointError/Kind/decodingFailed`` naming the line, or of kind
/// ``EndpointError/Kind/streamError`` when it decodes as the endpoint's error payload. A line
/// longer than the server's ``APIServer/maximumResponseSize`` fails the stream rather than filling
/// memory, so a body of any length runs in constant memory.
public struct JSONLines<Row: Decodable & Sendable>: AsyncSequence, Sendable {
    /// One row, decoded from its line.
    public typealias Element = Row

    let context: StreamContext

    /// Reads the rows in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let context: StreamContext
        var chunks: ByteStream.AsyncIterator
        var splitter: LineSplitter
        var ready: [[UInt8]] = []
        var next = 0
        var lineNumber = 0
        var finished = false

        /// The next row, or `nil` at the end of the body.
        ///
        /// - Throws: An ``EndpointError`` (see ``JSONLines``); `CancellationError`.
        public mutating func next() async throws -> Row? {
            while true {
                while next < ready.count {
                    let line = ready[next]
                    next += 1
                    lineNumber += 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                    return try context.decode(Row.self, from: Data(line), what: "line \(lineNumber) of the stream")
                }
                if finished { return nil }
                guard let chunk = try await chunks.next() else {
                    finished = true
                    ready = splitter.finish().map { [$0] } ?? []
                    next = 0
                    continue
                }
                do {
                    ready = try splitter.consume(chunk)
                    next = 0
                } catch {
                    finished = true
                    throw context.failure(
                        .responseTooLarge,
                        "line \(lineNumber + 1) of the stream is longer than \(error.limit) bytes, so the stream was stopped (raise APIServer.maximumResponseSize, or the endpoint's static maximumResponseSize, if it is expected)")
                }
            }
        }
    }

    /// Starts reading; a stream has one reader.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            context: context, chunks: context.body.makeAsyncIterator(),
            splitter: LineSplitter(maximumLength: context.maximumElementSize))
    }
}

extension JSONLines: Decodable, StreamedPayload {
    /// Always fails: rows are read from a response, not decoded from JSON.
    ///
    /// ```swift
    /// typealias ReturnPayloadType = JSONLines<Order>  // the call returns the stream
    /// ```
    public init(from decoder: any Decoder) throws {
        throw streamedPayloadIsNotDecodable(Self.self, decoder: decoder)
    }

    package static var acceptedTypes: String? { "application/jsonl, application/x-ndjson" }

    package static func reading(_ context: StreamContext) -> JSONLines<Row> {
        JSONLines(context: context)
    }
}
