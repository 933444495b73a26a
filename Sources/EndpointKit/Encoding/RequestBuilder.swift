import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an endpoint into the `URLRequest` that a server's transport sends.
///
/// URL = origin + path prefix (with `{version}`) + `/` + path (placeholders filled). Methods that
/// send a body get the remaining properties as JSON; the others get them as the query string.
enum RequestBuilder {
    static func request<E: Endpoint>(for endpoint: E, on server: Server) throws(EndpointError) -> URLRequest {
        let restful = endpoint.endpoint
        let method = restful.method
        let prefix = expandedPrefix(server.pathPrefix, version: restful.version)
        func failure(_ reason: String, _ underlying: (any Error)? = nil) -> EndpointError {
            EndpointError(
                kind: .invalidRequest, endpoint: "\(method) \(prefix)/\(trimmedPath(restful.path))",
                reason: reason, underlyingError: underlying)
        }

        guard let template = PathTemplate(trimmedPath(restful.path)) else {
            throw failure("the path template \"\(restful.path)\" has unbalanced braces or an empty {}")
        }
        let sendsBody = method.sendsParametersInBody
        var pathValues: [String: String] = [:]
        var query = ""
        if !template.names.isEmpty || !sendsBody {
            let parameters = ParameterEncoder(
                strategiesOf: server.encoder, pathNames: template.names, collectsQuery: !sendsBody)
            do {
                try parameters.encode(endpoint)
            } catch {
                throw failure("the parameters could not be encoded: \(describe(error))", error)
            }
            pathValues = parameters.pathValues
            query = queryString(parameters.queryItems)
        }

        let path: String
        switch template.render(with: pathValues) {
        case .success(let rendered):
            path = rendered
        case .failure(let missing):
            throw failure(missing.isEmpty
                ? "the path parameter \"\(missing.name)\" is an empty string"
                : "the path placeholder {\(missing.name)} has no value: \(E.self) needs a non-nil property named \"\(missing.name)\"")
        }

        var urlString = server.origin.absoluteString
        if urlString.hasSuffix("/") { urlString.removeLast() }
        urlString += prefix
        urlString += "/"
        urlString += path
        if !query.isEmpty {
            urlString += path.contains("?") ? "&" : "?"  // a template may carry a fixed query
            urlString += query
        }
        guard let url = URL(string: urlString) else {
            throw failure("\"\(urlString)\" is not a valid URL")
        }

        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        var headers = HeaderFields.merging(E.headers, into: server.headers)
        for (name, value) in headers {
            if let problem = HeaderFields.problem(name: name, value: value) {
                throw failure(problem)
            }
        }
        if !headers.keys.contains(where: { HeaderFields.sameName($0, "Accept") }) {
            headers["Accept"] = "application/json"
        }
        if sendsBody {
            do {
                request.httpBody = try server.encoder.encode(BodyEncoding(value: endpoint, excludedKeys: template.names))
            } catch {
                throw failure("the body could not be encoded: \(describe(error))", error)
            }
            if let other = headers.keys.first(where: { HeaderFields.sameName($0, "Content-Type") }) {
                headers.removeValue(forKey: other)  // the body is JSON, whatever the headers said
            }
            headers["Content-Type"] = "application/json"
        }
        request.allHTTPHeaderFields = headers
        return request
    }

    /// `/api/v{version}` → `/api/v2`; always with a leading slash and no trailing one, or empty.
    static func expandedPrefix(_ prefix: String, version: Int) -> String {
        var expanded = replacingVersion(in: prefix, with: version)
        while expanded.hasSuffix("/") { expanded.removeLast() }
        if !expanded.isEmpty && !expanded.hasPrefix("/") { expanded.insert("/", at: expanded.startIndex) }
        return expanded
    }

    /// `prefix` with every `{version}` replaced, without Foundation's costly string search.
    private static func replacingVersion(in prefix: String, with version: Int) -> String {
        let placeholder = "{version}".utf8
        let bytes = prefix.utf8
        guard bytes.contains(UInt8(ascii: "{")) else { return prefix }
        var result = ""
        var index = bytes.startIndex
        var copiedUpTo = index
        while index < bytes.endIndex {
            if bytes[index...].starts(with: placeholder) {
                result += prefix[copiedUpTo..<index]
                result += String(version)
                index = bytes.index(index, offsetBy: placeholder.count)
                copiedUpTo = index
            } else {
                index = bytes.index(after: index)
            }
        }
        result += prefix[copiedUpTo...]
        return result
    }

    private static func trimmedPath(_ path: String) -> String {
        path.hasPrefix("/") ? String(path.drop(while: { $0 == "/" })) : path
    }

    private static func queryString(_ items: [(name: String, value: String)]) -> String {
        var query = ""
        for (name, value) in items {
            if !query.isEmpty { query += "&" }
            query += PercentEncoding.encode(name)
            query += "="
            query += PercentEncoding.encode(value)
        }
        return query
    }

    private static func describe(_ error: any Error) -> String {
        guard case EncodingError.invalidValue(_, let context) = error else {
            return "\(error)"
        }
        let path = CodingPathText.render(context.codingPath)
        return "\(context.debugDescription) (at \(path))"
    }
}
