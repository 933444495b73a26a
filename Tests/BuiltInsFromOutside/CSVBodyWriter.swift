import Foundation

/// A body format EndpointKit does not have, written as an app would: the endpoint's one list of
/// rows as CSV (RFC 4180), a header line from the first row's keys.
struct CSVBodyWriter: BodyWriter {
    var mediaType: String { "text/csv" }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    func write(_ properties: some Encodable, for server: APIServer) throws -> Data {
        // The server's encoder names the columns as it names JSON keys (snake_case).
        let object = try JSONSerialization.jsonObject(with: server.encoder.encode(properties)) as? [String: Any]
        guard let object, object.count == 1, let rows = object.values.first as? [[String: Any]] else {
            throw Problem(description: "a CSV body is one list of rows")
        }
        let columns = rows.first.map { $0.keys.sorted() } ?? []
        var lines = [columns.map(Self.field).joined(separator: ",")]
        for row in rows {
            lines.append(columns.map { row[$0].map { Self.field("\($0)") } ?? "" }.joined(separator: ","))
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A field, quoted when it holds a comma, a quote or a line break.
    private static func field(_ text: String) -> String {
        guard text.contains(where: { ",\"\r\n".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func schema(ofBody properties: JSONValue) -> JSONValue {
        ["type": "string", "contentMediaType": "text/csv"]
    }
}

extension BodyFormat {
    static let csv = BodyFormat(CSVBodyWriter())
}
