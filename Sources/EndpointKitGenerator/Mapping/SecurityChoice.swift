#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
import Yams

/// The authorization the generated server adds: the first security scheme an operation asks for,
/// as the matching EndpointKit middleware, and the factory parameters that carry its secret.
///
/// | scheme | middleware | parameters |
/// |---|---|---|
/// | `http` `bearer`, `oauth2`, `openIdConnect` | `HTTPBearerAuthorization(token:)` | `token` |
/// | `http` `basic` | `HTTPBasicAuthorization(username:password:)` | `username`, `password` |
/// | `apiKey` in a header or the query | `APIKeyAuthorization(header:value:)` or `(queryParameter:value:)` | `apiKey` |
///
/// An `apiKey` in a cookie, and any scheme after the first, get no middleware: the factory's
/// documentation says so.
struct SecurityChoice {
    var middleware: String?
    var parameters: [String] = []
    var example = ""
    var summary = ""
    var notes: [String] = []

    init(root: Node, operations: [OperationMapper.Operation], probe: OperationMapper) {
        let schemes = root["components"]?["securitySchemes"]?.mapping ?? [:]
        var used: [String] = []
        for operation in operations where probe.requiresAuthorization(operation) {
            let security = operation.node["security"] ?? root["security"]
            for requirement in security?.sequence ?? [] {
                for (key, _) in requirement.mapping ?? [:] { if let key = key.string, !used.contains(key) { used.append(key) } }
            }
        }
        guard let first = used.first, let scheme = schemes[Node(first)] else { return }
        switch (scheme["type"]?.string, scheme["scheme"]?.string?.lowercased(), scheme["in"]?.string) {
        case ("http", "basic"?, _):
            middleware = "HTTPBasicAuthorization(username: username, password: password)"
            parameters = ["username: String", "password: String"]
            example = "username: user, password: password"
        case ("http", "bearer"?, _), ("oauth2", _, _), ("openIdConnect", _, _):
            middleware = "HTTPBearerAuthorization(token: token)"
            parameters = ["token: String"]
            example = "token: token"
        case ("apiKey", _, "header"?), ("apiKey", _, "query"?):
            let name = scheme["name"]?.string ?? "api_key"
            let place = scheme["in"]?.string == "header" ? "header" : "queryParameter"
            middleware = "APIKeyAuthorization(\(place): \(SwiftWriter.literal(name)), value: apiKey)"
            parameters = ["apiKey: String"]
            example = "apiKey: key"
        default:
            notes.append("The document's \"\(first)\" security scheme has no EndpointKit middleware here: add one to `middlewares`.")
            return
        }
        summary = " and `\(middleware!.prefix { $0 != "(" })` for \"\(first)\""
        for other in used.dropFirst() {
            notes.append("The \"\(other)\" security scheme is not wired: add its middleware to `middlewares` where an endpoint needs it.")
        }
    }
}
#endif
