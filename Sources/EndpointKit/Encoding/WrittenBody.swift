import Foundation

/// A request body as its ``BodyWriter`` wrote it: the bytes, or a multipart body still to be
/// streamed to a temporary file, and the `Content-Type` that names it.
struct WrittenBody {
    /// A body that cannot be sent, with the reason.
    struct Problem: Error {
        let reason: String
    }

    let contentType: String
    var data: Data?
    /// A multipart body with files on disk, written when the call runs (see
    /// ``PreparedRequest/writePendingBody()``).
    var pending: MultipartBody?

    init(contentType: String, data: Data? = nil, pending: MultipartBody? = nil) {
        self.contentType = contentType
        self.data = data
        self.pending = pending
    }

    /// The body `writer` writes of `endpoint`; the other properties are placed in `parameters`
    /// on the way, in the same pass when the writer encodes what it is given.
    static func of<E: Endpoint>(_ endpoint: E, by writer: any BodyWriter, on server: APIServer, parameters: ParameterEncoder) throws -> WrittenBody {
        if let problem = HeaderRules.problem(name: "Content-Type", value: writer.mediaType) {
            throw Problem(reason: problem)
        }
        var written = try write(BodyEncoding(value: endpoint, parameters: parameters), by: writer, on: server)
        if !parameters.placed { try parameters.encode(endpoint) }  // the writer did not read its input
        if let whole = parameters.wholeBody {
            if let other = parameters.firstBodyKey {
                throw Problem(reason: "\(E.self) sends its @Body property as the whole body, so the property \"\(other)\" has no place in it: mark it @QueryItem or @HeaderField, or name it in the path")
            }
            written = try write(whole, by: writer, on: server)
        }
        return written
    }

    private static func write(_ value: some Encodable, by writer: some BodyWriter, on server: APIServer) throws -> WrittenBody {
        if let fileBacked = writer as? any FileBackedBodyWriter { return try fileBacked.writtenBody(value, for: server) }
        let data = try writer.write(value, for: server)
        // A key the server's encoder could not name is marked in the bytes (see MissingCaseNames).
        if let missing = MissingCaseNames.found(in: data) { throw missing }
        return WrittenBody(contentType: writer.mediaType, data: data)
    }
}

/// A writer whose body may be too large for memory (files on disk), written when the call runs,
/// under a `Content-Type` of its own making (a multipart boundary), which an endpoint cannot set.
protocol FileBackedBodyWriter: BodyWriter {
    func writtenBody(_ properties: some Encodable, for server: APIServer) throws -> WrittenBody
}
