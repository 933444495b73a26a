import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request and its response as ``ReplayTransport`` writes them to a file: readable JSON, with
/// secrets redacted by `RequestLogger`'s rules.
///
/// ```json
/// {
///   "operationID" : "PurchaseCheer",
///   "request" : {
///     "body" : { "json" : { "identifier" : "a", "transaction_id" : 1 } },
///     "headers" : { "Authorization" : "<redacted>", "Content-Type" : "application/json" },
///     "method" : "POST",
///     "url" : "http://127.0.0.1:8080/api/v2/purchase_cheer"
///   },
///   "response" : {
///     "body" : { "json" : { "balance" : 200 } },
///     "headers" : { "Content-Type" : "application/json" },
///     "status" : 200
///   }
/// }
/// ```
struct RecordedExchange {
    /// The operation ID of the endpoint that made the request (``EndpointError/operationID``).
    var operationID: String?
    var method: String
    /// The URL with secret query values redacted.
    var url: String
    var requestHeaders: [String: String]
    var requestBody: RecordedBody
    var status: Int
    var responseHeaders: [String: String]
    var responseBody: RecordedBody

    /// Response headers that describe the bytes as they travelled, not the body as recorded (which
    /// is decompressed, and re-serialized when it is JSON): they are left out.
    static let transferHeaders: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]

    /// The exchange of `request` (after middlewares) and its answer, redacted.
    init(operationID: String?, request: URLRequest, body: Data, response: HTTPURLResponse, responseBody: Data, redaction: Redaction) {
        self.operationID = operationID
        method = request.httpMethod ?? "GET"
        url = redaction.redactedURL(request.url)
        requestHeaders = Self.redacted(request.allHTTPHeaderFields ?? [:], redaction: redaction)
        requestBody = RecordedBody(body, contentType: request.value(forHTTPHeaderField: "Content-Type"), redaction: redaction)
        status = response.statusCode
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields
        where !Self.transferHeaders.contains(name.lowercased()) {
            headers[name] = value
        }
        responseHeaders = Self.redacted(headers, redaction: redaction)
        self.responseBody = RecordedBody(responseBody, contentType: response.value(forHTTPHeaderField: "Content-Type"), redaction: redaction)
    }

    /// The exchange read back from a file's contents.
    init(file data: Data) throws(FileProblem) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FileProblem("it is not a JSON object")
        }
        guard let request = object["request"] as? [String: Any], let response = object["response"] as? [String: Any] else {
            throw FileProblem("it needs a \"request\" and a \"response\" object")
        }
        guard let method = request["method"] as? String, let url = request["url"] as? String else {
            throw FileProblem("its request needs a \"method\" and a \"url\" string")
        }
        guard let status = response["status"] as? Int else {
            throw FileProblem("its response needs a \"status\" number")
        }
        operationID = object["operationID"] as? String
        self.method = method
        self.url = url
        requestHeaders = try Self.headers(request["headers"], in: "request")
        requestBody = try RecordedBody(file: request["body"], in: "request")
        self.status = status
        responseHeaders = try Self.headers(response["headers"], in: "response")
        responseBody = try RecordedBody(file: response["body"], in: "response")
    }

    /// What a replayed request must match: method, redacted URL and body.
    var key: String {
        Self.key(method: method, url: url, body: requestBody)
    }

    /// The key of a request with this method, redacted URL and body; recording and replaying
    /// both compute it here, so that they agree.
    static func key(method: String, url: String, body: RecordedBody) -> String {
        "\(method) \(url)\n\(body.matchingText)"
    }

    /// The file's contents: pretty-printed JSON with sorted keys.
    func fileContents() throws -> Data {
        var request: [String: Any] = ["method": method, "url": url, "headers": requestHeaders]
        request["body"] = requestBody.fileValue
        var response: [String: Any] = ["status": status, "headers": responseHeaders]
        response["body"] = responseBody.fileValue
        var object: [String: Any] = ["request": request, "response": response]
        object["operationID"] = operationID
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// A file name that reads as the request and is the same each time the request is recorded:
    /// `POST-api-v2-purchase_cheer-3f2a9c1e0b7d4a55-1.json` (method, path, a hash of the whole
    /// request, and the how-manieth identical request it was).
    func fileName(number: Int) -> String {
        "\(Self.filePrefix(forKey: key, method: method, url: url))\(number).json"
    }

    /// The start of the file names of every recording of the request with `key`.
    static func filePrefix(forKey key: String, method: String, url: String) -> String {
        let path = URLComponents(string: url)?.percentEncodedPath ?? ""
        var slug = String(path.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == ".") ? Character(scalar) : "-"
        })
        slug = slug.split(separator: "-").joined(separator: "-")
        let safeMethod = String(method.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) }.map(Character.init))
        let hash = String(fnv1a(key), radix: 16)
        return "\(safeMethod)-\(slug.prefix(80))\(slug.isEmpty ? "" : "-")\(String(repeating: "0", count: 16 - hash.count))\(hash)-"
    }

    /// FNV-1a, 64 bits: a stable hash for file names (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    private static func redacted(_ headers: [String: String], redaction: Redaction) -> [String: String] {
        headers.reduce(into: [:]) { result, header in
            result[header.key] = redaction.redacts(header.key) ? Redaction.placeholder : header.value
        }
    }

    private static func headers(_ value: Any?, in part: String) throws(FileProblem) -> [String: String] {
        guard let value else { return [:] }
        guard let headers = value as? [String: String] else {
            throw FileProblem("its \(part) headers must be an object of strings")
        }
        return headers
    }

    /// What is wrong with a recording file.
    struct FileProblem: Error {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A recorded body, in the most readable form that keeps it: JSON as JSON, text as text, other
/// bytes in base64. A multipart request body (its boundary is random) is kept as its size only.
enum RecordedBody {
    case none
    case json(Any)
    case text(String)
    case base64(Data)
    case multipart(byteCount: Int)

    init(_ data: Data, contentType: String?, redaction: Redaction) {
        let type = contentType?.lowercased() ?? ""
        if data.isEmpty {
            self = .none
        } else if type.contains("json"), let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) {
            self = .json(redaction.redact(object))
        } else if type.hasPrefix("multipart/") {
            self = .multipart(byteCount: data.count)
        } else if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") {
            self = .text(type.hasPrefix("application/x-www-form-urlencoded") ? redaction.redactedPairs(text) : text)
        } else {
            self = .base64(data)
        }
    }

    init(file value: Any?, in part: String) throws(RecordedExchange.FileProblem) {
        guard let value else {
            self = .none
            return
        }
        guard let object = value as? [String: Any], object.count == 1, let (form, content) = object.first else {
            throw RecordedExchange.FileProblem("its \(part) body must be an object with one of \"json\", \"text\", \"base64\" or \"multipart\"")
        }
        switch (form, content) {
        case ("json", _): self = .json(content)
        case ("text", let text as String): self = .text(text)
        case ("base64", let text as String):
            guard let data = Data(base64Encoded: text) else {
                throw RecordedExchange.FileProblem("its \(part) body is not valid base64")
            }
            self = .base64(data)
        case ("multipart", let size as String): self = .multipart(byteCount: Int(size.split(separator: " ").first ?? "") ?? 0)
        default:
            throw RecordedExchange.FileProblem("its \(part) body has an unknown form \"\(form)\" (or a value of the wrong type)")
        }
    }

    /// How the body is written in the file; `nil` for no body.
    var fileValue: [String: Any]? {
        switch self {
        case .none: nil
        case .json(let value): ["json": value]
        case .text(let text): ["text": text]
        case .base64(let data): ["base64": data.base64EncodedString()]
        case .multipart(let count): ["multipart": "\(count) bytes"]
        }
    }

    /// The body as compared between a request and a recording: JSON with sorted keys (so that key
    /// order does not matter), text as it is; nothing for a multipart body.
    var matchingText: String {
        switch self {
        case .none, .multipart: ""
        case .json(let value): String(decoding: Self.serialized(value), as: UTF8.self)
        case .text(let text): text
        case .base64(let data): data.base64EncodedString()
        }
    }

    /// The bytes a replayed response carries.
    var bytes: Data {
        switch self {
        case .none, .multipart: Data()
        case .json(let value): Self.serialized(value)
        case .text(let text): Data(text.utf8)
        case .base64(let data): data
        }
    }

    private static func serialized(_ value: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])) ?? Data()
    }
}
