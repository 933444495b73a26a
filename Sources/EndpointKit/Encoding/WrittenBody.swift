import Foundation

/// A request body in its format: the bytes, or a multipart body still to be streamed to a
/// temporary file, and the `Content-Type` that names it.
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

    /// - Parameters:
    ///   - json: The JSON body, already encoded in the same pass as the parameters.
    ///   - parameters: The form or multipart fields, or the raw body.
    init(_ format: BodyFormat, json: Data?, parameters: ParameterEncoder) throws {
        switch format.kind {
        case .json:
            let type = format.jsonMediaType ?? "application/json"
            if let problem = HeaderRules.problem(name: "Content-Type", value: type) {
                throw Problem(reason: problem)
            }
            contentType = type
            data = json
        case .empty:
            contentType = ""  // never used: RequestBuilder sends no body for `.empty`
            data = nil
        case .form:
            contentType = "application/x-www-form-urlencoded"
            data = Data(RequestBuilder.formEncoded(parameters.fields.map { ($0.name, $0.value.text) }, lists: parameters.fieldLists).utf8)
        case .raw(let type):
            if let problem = HeaderRules.problem(name: "Content-Type", value: type) {
                throw Problem(reason: problem)  // the only content type that does not come from EndpointKit
            }
            contentType = type
            data = parameters.rawBody ?? Data()
        case .multipart:
            let multipart = try MultipartBody(fields: parameters.fields)
            if multipart.streamsFromDisk {
                pending = multipart
            } else {
                data = multipart.data()
            }
            contentType = multipart.contentType
        }
    }
}
