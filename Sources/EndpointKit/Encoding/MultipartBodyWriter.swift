import Foundation

/// `multipart/form-data`: a part per body property; ``MultipartFile`` properties are file parts,
/// streamed to a temporary file when the call runs if any is on disk.
struct MultipartBodyWriter: FileBackedBodyWriter, CustomStringConvertible {
    var mediaType: String { "multipart/form-data" }
    var description: String { "multipart" }

    func write(_ properties: some Encodable, for server: APIServer) throws -> Data {
        let written = try writtenBody(properties, for: server)
        guard var pending = written.pending else { return written.data ?? Data() }
        return try Data(contentsOf: pending.writeToTemporaryFile().url)  // the core streams it instead
    }

    func writtenBody(_ properties: some Encodable, for server: APIServer) throws -> WrittenBody {
        let multipart = try MultipartBody(fields: ParameterEncoder.fields(of: properties, for: server, destination: .multipart).fields)
        if multipart.streamsFromDisk {
            return WrittenBody(contentType: multipart.contentType, pending: multipart)
        }
        return WrittenBody(contentType: multipart.contentType, data: multipart.data())
    }
}

extension BodyFormat {
    /// `multipart/form-data`: each property is a part; ``MultipartFile`` properties are file parts
    /// (from memory or streamed from disk), the others are text fields with the query's value rules.
    public static let multipart = BodyFormat(MultipartBodyWriter())
}
