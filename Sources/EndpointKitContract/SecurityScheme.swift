import EndpointKit
/// An OpenAPI security scheme named after the authorization middleware that applies it.
struct SecurityScheme {
    package let name: String
    let scheme: JSONValue

    /// The schemes of the authorization middlewares among `middlewares`, in their order.
    static func schemes(of middlewares: [any EndpointMiddleware]) -> [SecurityScheme] {
        var schemes: [SecurityScheme] = []
        for middleware in middlewares {
            let scheme: SecurityScheme
            switch middleware {
            case is HTTPBearerAuthorization, is RefreshTokenAuthorization:
                scheme = SecurityScheme(name: "bearerAuth", scheme: .object(["type": .string("http"), "scheme": .string("bearer")]))
            case is HTTPBasicAuthorization:
                scheme = SecurityScheme(name: "basicAuth", scheme: .object(["type": .string("http"), "scheme": .string("basic")]))
            case let key as APIKeyAuthorization:
                switch key.placement {
                case .header(let name):
                    scheme = SecurityScheme(name: "apiKeyHeader", scheme: .object(["type": .string("apiKey"), "in": .string("header"), "name": .string(name)]))
                case .query(let name):
                    scheme = SecurityScheme(name: "apiKeyQuery", scheme: .object(["type": .string("apiKey"), "in": .string("query"), "name": .string(name)]))
                }
            default:
                continue
            }
            if !schemes.contains(where: { $0.name == scheme.name }) { schemes.append(scheme) }
        }
        return schemes
    }
}
