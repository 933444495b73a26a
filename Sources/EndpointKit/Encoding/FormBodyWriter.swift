import Foundation

/// `application/x-www-form-urlencoded`: the body properties as `name=value` pairs, with the
/// query's names, value rules, list style and percent-encoding.
struct FormBodyWriter: BodyWriter, CustomStringConvertible {
    var mediaType: String { "application/x-www-form-urlencoded" }
    var description: String { "form" }

    func write(_ properties: some Encodable, for server: APIServer) throws -> Data {
        let fields = try ParameterEncoder.fields(of: properties, for: server, destination: .form)
        return Data(RequestBuilder.formEncoded(fields.fields.map { ($0.name, $0.value.text) }, lists: fields.fieldLists).utf8)
    }
}

extension BodyFormat {
    /// `application/x-www-form-urlencoded`: the properties as `name=value` pairs, with the same
    /// names, value rules and percent-encoding as a query string.
    public static let form = BodyFormat(FormBodyWriter())
}
