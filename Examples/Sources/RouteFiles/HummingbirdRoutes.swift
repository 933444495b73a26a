// A Hummingbird 2.28.1 route file that calls an upstream API through EndpointKit, as a server app
// writes one: Hummingbird's everyday names (Request, Response, Router, Application,
// RouterMiddleware, HTTPError) and EndpointKit's (APIServer, Endpoint, EndpointMiddleware,
// MCPServer) side by side, none qualified. It builds with the example (CI), so a public name of
// EndpointKit that meets one of Hummingbird's breaks the build here first.
import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitMCP
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest and HTTPURLResponse on Linux
#endif
import HTTPTypes
import Hummingbird

/// The upstream API's balance endpoint, as the app declares it.
nonisolated struct UpstreamBalance: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "balance/{user}") }
    let user: String
    struct ReturnPayloadType: Decodable, Sendable, ResponseEncodable { let balance: Int }
}

/// Adds a header to every answer: a Hummingbird middleware beside EndpointKit's own.
struct UpstreamHeader<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.init("X-Upstream")!] = "reiterate"
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
func makeRoutes(upstream origin: URL) -> Router<BasicRequestContext> {
    let upstream = APIServer(origin: origin, pathPrefix: "", transport: AsyncHTTPClientTransport.shared, middlewares: [UpstreamCounter()])
    let router = Router()
    router.add(middleware: UpstreamHeader())
    router.get("/balance/:user") { request, context -> UpstreamBalance.ReturnPayloadType in
        guard let user = context.parameters.get("user") else { throw HTTPError(.badRequest) }
        return try await UpstreamBalance(user: user).call(on: upstream)
    }
    let mcp = MCPServer(name: "upstream", version: "1.0", tools: EndpointTools([UpstreamBalance.self], on: upstream))
    router.post("/mcp") { request, _ -> Response in
        let body = try await request.body.collect(upTo: MCPServer.maximumMessageSize)
        let reply = await mcp.handle(MCPServer.HTTPRequest(
            method: request.method.rawValue, headers: request.headers.map { ($0.name.rawName, $0.value) }, body: Data(buffer: body)))
        var headers = HTTPFields()
        for (name, value) in reply.headers {
            if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
        }
        return Response(status: .init(code: reply.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
    return router
}

/// The application, as `main.swift` would start it.
func makeApplication(upstream: URL) -> some ApplicationProtocol {
    Application(router: makeRoutes(upstream: upstream), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
}
