// A Vapor 4.122.3 route file that calls an upstream API through EndpointKit, as a server app writes
// one: Vapor's everyday names (Request, Response, Application, AsyncMiddleware, HTTPMethod,
// HTTPStatus, Content, Abort) and EndpointKit's (APIServer, Endpoint, EndpointMiddleware,
// HTTPBearerAuthorization, MCPServer) side by side, none qualified. `bash .ci/adopt --vapor` builds
// it in a new package (a first Vapor build takes 4 to 8 minutes on two cores, so CI checks the same
// names through NameClashTests instead).
import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitMCP
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest and HTTPURLResponse on Linux
#endif
import Vapor

/// The upstream API's balance endpoint, as the app declares it.
nonisolated struct UpstreamBalance: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "balance/{user}") }
    let user: String
    struct ReturnPayloadType: Content { let balance: Int }
}

/// Adds a header to every answer: a Vapor middleware beside EndpointKit's own.
struct UpstreamHeader: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "X-Upstream", value: "reiterate")
        return response
    }
}

/// Counts calls to the upstream API: an EndpointKit middleware.
nonisolated struct UpstreamCounter: EndpointMiddleware {
    func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: EndpointMiddleware.Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        try await next(request, body)
    }
}

/// The routes: `/balance/:user` calls the upstream API; `/mcp` serves its endpoints to models.
func routes(_ app: Application, upstream origin: URL, token: String) {
    let upstream = APIServer(origin: origin, pathPrefix: "", transport: AsyncHTTPClientTransport.shared,
                             middlewares: [UpstreamCounter(), HTTPBearerAuthorization(token: token)])
    app.middleware.use(UpstreamHeader())
    app.on(HTTPMethod.GET, "balance", ":user") { request async throws -> UpstreamBalance.ReturnPayloadType in
        guard let user = request.parameters.get("user") else { throw Abort(HTTPStatus.badRequest) }
        return try await UpstreamBalance(user: user).call(on: upstream)
    }
    let mcp = MCPServer(name: "upstream", version: "1.0", tools: EndpointTools([UpstreamBalance.self], on: upstream))
    app.on(.POST, "mcp", body: .collect(maxSize: "1mb")) { request async -> Response in
        let body = request.body.data.map { Data(buffer: $0) } ?? Data()
        let reply = await mcp.handle(MCPServer.HTTPRequest(
            method: request.method.rawValue, headers: request.headers.map { ($0.name, $0.value) }, body: body))
        var headers = HTTPHeaders()
        for (name, value) in reply.headers { headers.add(name: name, value: value) }
        return Response(status: HTTPStatus(statusCode: reply.status), headers: headers, body: .init(data: reply.body))
    }
}
