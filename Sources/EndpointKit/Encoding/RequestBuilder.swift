import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request ready for the middleware chain: the `URLRequest` (without a body), and the body, in
/// memory or in the file a multipart body with files is streamed from.
package struct PreparedRequest: Sendable {
    package var request: URLRequest
    /// The body in memory; `nil` for none, or one on disk.
    package var bodyData: Data?
    var bodyFile: TemporaryFile?
    /// The endpoint's method and path template, for middlewares.
    package var restful: Restful
    /// A multipart body with files on disk, not yet written to `bodyFile`.
    var pendingBody: MultipartBody?
    /// The server's path prefix with the version filled in, for error messages.
    var prefix: String
    /// The `@QueryItem` properties as a query, for a call at a URL the server handed out.
    var placedQuery = ""

    /// The call's route, `"GET /api/v1/repos/{owner}/{repo}"`, as its errors name it.
    var route: String { RequestBuilder.label(restful, prefix: prefix) }

    /// The body as middlewares see it first: the bytes, or a stream of the body file.
    var body: MessageBody? {
        if let bodyFile { return .stream(ByteStream(file: ByteStream.File(url: bodyFile.url, keeper: bodyFile))) }
        return bodyData.map(MessageBody.data)
    }

    /// Streams a pending multipart body to its temporary file, off the cooperative threads.
    mutating func writePendingBody() async throws(EndpointError) {
        guard let pending = pendingBody else { return }
        do {
            let written = try await pending.writtenToTemporaryFile()
            bodyFile = written.file
            request.setValue(written.contentType, forHTTPHeaderField: "Content-Type")  // the boundary may have changed
            pendingBody = nil
        } catch {
            throw EndpointError(
                kind: .invalidRequest, route: RequestBuilder.label(restful, prefix: prefix),
                reason: "the multipart body could not be written: \(RequestBuilder.describe(error))", underlyingError: error)
        }
    }
}

/// Turns an endpoint into the request that a server's transport sends.
///
/// URL = origin + path prefix (with `{version}`) + `/` + path (placeholders filled) + query. The
/// body format comes from the endpoint's ``Restful`` value, or from its method: JSON for `POST`,
/// `PUT` and `PATCH`, none (the properties form the query) for the others. Headers: server, then
/// endpoint, then `@HeaderField` properties, each replacing the same name in any case.
package enum RequestBuilder {
    package static func request<E: Endpoint>(for endpoint: E, on server: APIServer) throws(EndpointError) -> PreparedRequest {
        let restful = endpoint.endpoint
        let method = restful.method
        let base = server.plan.base(version: restful.version, prefix: restful.prefix)
        func failure(_ reason: String, _ underlying: (any Error)? = nil) -> EndpointError {
            EndpointError(
                kind: .invalidRequest, route: label(restful, prefix: base.prefix), reason: reason, underlyingError: underlying)
        }

        guard let template = PathTemplate.parsed(restful.path) else {
            throw failure("the path template \"\(restful.path)\" has unbalanced braces or an empty {}")
        }
        let format = restful.sentBodyFormat
        if format != nil && (method == .get || method == .head) {
            throw failure("a \(method) request cannot carry a body (URLSession refuses it); remove body: from its Restful value")
        }
        let parameters = ParameterEncoder(
            strategiesOf: server.encoder, pathNames: template.names, destination: format == nil ? .query : .nowhere,
            arrays: server.arrayEncoding)
        var written: WrittenBody?
        do {
            if let writer = format?.writer {
                written = try WrittenBody.of(endpoint, by: writer, on: server, parameters: parameters)
            } else {
                try parameters.encode(endpoint)
            }
        } catch let problem as WrittenBody.Problem {
            throw failure(problem.reason)
        } catch let missing as MissingCaseNames {
            // Keys spelled by hand cannot be told apart in a build without reflection metadata.
            throw failure(missing.description)
        } catch {
            throw failure("the \(format == nil ? "parameters" : "body") could not be encoded: \(describe(error))", error)
        }

        var urlString = base.url
        urlString += "/"
        if let missing = template.render(with: parameters.pathValues, into: &urlString) {
            switch (missing.problem, missing.inSegments) {
            case (.empty, nil):
                throw failure("the path parameter \"\(missing.name)\" is an empty string")
            case (.dotSegment(let value), nil):
                throw failure("the path parameter \"\(missing.name)\" is \"\(value)\", a dot segment that would climb the path; it cannot be sent as a path value")
            case (.empty, let value?):
                throw failure("the path parameter {+\(missing.name)} is \"\(value)\", which has an empty segment (a leading, trailing or doubled \"/\")")
            case (.dotSegment(let segment), let value?):
                throw failure("the path parameter {+\(missing.name)} is \"\(value)\", whose segment \"\(segment)\" would climb the path; it cannot be sent as a path value")
            case (.missing, _):
                throw failure(unboundPlaceholder(missing.name, in: E.self))
            }
        }
        if !parameters.queryItems.isEmpty {
            urlString += template.hasQuery ? "&" : "?"  // a template may carry a fixed query
            urlString += formEncoded(parameters.queryItems, lists: parameters.queryLists)
        }
        // Every part is percent-encoded already (see `PercentEncoding.escapingDisallowed`), so this
        // parses on every OS; a failure is still an error, never a request to some other URL.
        guard let url = URL(string: urlString) else {
            throw failure("\"\(urlString)\" is not a valid URL")
        }

        // The server's headers were validated, and `Accept` defaulted, when they were set.
        if let problem = server.plan.headerProblem { throw failure(problem) }
        var headers = server.plan.headers
        var endpointContentType: String?
        func add(_ name: String, _ value: String) throws(EndpointError) {
            if let problem = HeaderRules.problem(name: name, value: value) { throw failure(problem) }
            HeaderRules.set(value, for: name, in: &headers)
            if HeaderRules.sameName(name, "Content-Type") { endpointContentType = value }
        }
        // The endpoint's static headers, then its @HeaderField properties, which win.
        for (name, value) in E.headers { try add(name, value) }
        for (name, value) in parameters.headers { try add(name, value) }

        // Never answered from a URL cache: HTTPCache revalidates with the server (see
        // URLSessionTransport.makeConfiguration()).
        var prepared = PreparedRequest(
            request: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData), restful: restful, prefix: base.prefix)
        if !parameters.placedQueryIndices.isEmpty {
            let items = parameters.placedQueryIndices.map { parameters.queryItems[$0] }
            var lists: [Int: [String]] = [:]
            for (position, index) in parameters.placedQueryIndices.enumerated() { lists[position] = parameters.queryLists[index] }
            prepared.placedQuery = formEncoded(items, lists: lists)
        }
        if method != .get {
            prepared.request.httpMethod = method.rawValue  // GET is the default, and setting it costs
        }
        if let written, let format, let writer = format.writer {
            // The writer's type replaces the server's; the endpoint's own `Content-Type` stays, but
            // not over one the writer made for this body (a multipart boundary).
            if endpointContentType == nil {
                HeaderRules.set(written.contentType, for: "Content-Type", in: &headers)
            } else if written.contentType != writer.mediaType {
                throw failure("\(E.self) sets its own Content-Type, but a \(format) body's Content-Type names its boundary and is set by EndpointKit; remove the header")
            }
            prepared.bodyData = written.data
            prepared.pendingBody = written.pending
        }
        prepared.request.allHTTPHeaderFields = headers
        return prepared
    }

    /// Points a prepared request at `url`, a URL the server handed out (`Location`, a `Link`,
    /// `Next-Page`): absolute, or relative to the server's base URL. Its query is kept, and the
    /// endpoint's `@QueryItem` properties follow it (a registry's `digest` after the upload
    /// session's `_state`); the endpoint's other query parameters are not added, since a URL the
    /// server handed out already carries what it needs. Only `http` and `https` are
    /// allowed, never from an `https` server down to `http`; off the server's origin the request
    /// loses `Authorization`, `Proxy-Authorization` and `Cookie` (authorization middlewares
    /// add nothing there either).
    static func retarget(_ prepared: inout PreparedRequest, to url: URL, on server: APIServer) throws(EndpointError) {
        let label = label(prepared.restful, prefix: prepared.prefix)
        func failure(_ reason: String) -> EndpointError {
            EndpointError(kind: .invalidRequest, route: label, reason: reason)
        }
        let target: URL?
        if url.scheme != nil || url.baseURL != nil {
            target = url.absoluteURL
        } else {
            let base = server.plan.base(version: prepared.restful.version, prefix: prepared.restful.prefix).url + "/"
            target = PercentEncoding.resolve(url.relativeString, against: URL(string: base))
        }
        guard let target else {
            throw failure("the URL \"\(url.relativeString)\" to call it at cannot be resolved against \(server.origin.absoluteString)")
        }
        let scheme = target.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", target.host != nil else {
            throw failure("the URL \"\(target.absoluteString)\" to call it at is not http or https; nothing was sent")
        }
        if server.origin.scheme?.lowercased() == "https" && scheme == "http" {
            throw failure("the URL \"\(target.absoluteString)\" to call it at would downgrade the server's https to http; nothing was sent")
        }
        if !prepared.placedQuery.isEmpty {
            var text = target.absoluteString
            if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
            text += (target.query == nil ? "?" : (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&")) + prepared.placedQuery
            guard let withQuery = URL(string: text) else {
                throw failure("\"\(text)\" is not a valid URL")
            }
            prepared.request.url = withQuery
        } else {
            prepared.request.url = target
        }
        if let stripped = Redirect.removingCredentials(prepared.request, leaving: server.origin, credentials: CredentialNames()) {
            prepared.request = stripped
        }
    }

    /// `"POST /api/v1/albums/{albumId}/photos"`: how errors before sending name the endpoint.
    package static func label(_ restful: Restful, prefix: String) -> String {
        "\(restful.method) \(prefix)/\(trimmedPath(restful.path))"
    }

    private static func trimmedPath(_ path: String) -> String {
        path.hasPrefix("/") ? String(path.drop(while: { $0 == "/" })) : path
    }

    /// `name=value&…`, percent-encoded: the query string, and the body of a form. An item with
    /// an entry in `lists` is a comma-separated list: each element is encoded, the commas kept.
    static func formEncoded(_ items: [(name: String, value: String)], lists: [Int: [String]] = [:]) -> String {
        var query = ""
        for (index, (name, value)) in items.enumerated() {
            if !query.isEmpty { query += "&" }
            query += PercentEncoding.encode(name)
            query += "="
            if let elements = lists[index] {
                query += elements.map(PercentEncoding.encode).joined(separator: ",")
            } else {
                query += PercentEncoding.encode(value)
            }
        }
        return query
    }

    static func describe(_ error: any Error) -> String {
        guard case EncodingError.invalidValue(_, let context) = error else {
            return "\(error)"
        }
        let path = CodingPathText.render(context.codingPath)
        return "\(context.debugDescription) (at \(path))"
    }
}

extension RequestBuilder {
    /// Why a path placeholder has no value, in the words the call and the document both use.
    package static func unboundPlaceholder(_ name: String, in type: Any.Type) -> String {
        "the path placeholder {\(name)} has no value: \(type) needs a non-nil property named \"\(name)\" (its Swift name or its coding key)"
    }
}
