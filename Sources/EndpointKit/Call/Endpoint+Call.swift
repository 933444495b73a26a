import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Endpoint {
    /// Calls the endpoint on its own ``server`` (or ``APIServer/default``) and returns its payload.
    ///
    /// ```swift
    /// let result = try await PurchaseCheer(identifier: id, transactionId: tid).call()
    /// ```
    ///
    /// - Throws: ``EndpointError`` when the call fails (including when no default server is set),
    ///   `CancellationError` when the calling task is cancelled.
    public func call() async throws -> ReturnPayloadType {
        try await call(on: defaultServer())
    }

    /// Calls the endpoint on `server` and returns its payload.
    ///
    /// ```swift
    /// let github = APIServer(origin: URL(string: "https://api.github.com")!, pathPrefix: "")
    /// let branches = try await ListBranches(owner: "apple", repo: "swift", perPage: 30).call(on: github)
    /// ```
    ///
    /// - Throws: ``EndpointError`` when the call fails, `CancellationError` when the calling task
    ///   is cancelled.
    public func call(on server: APIServer) async throws -> ReturnPayloadType {
        try await callWithMetadata(on: server).payload
    }

    /// Calls the endpoint on its own ``server`` (or ``APIServer/default``) and returns its payload with
    /// the response's status and headers.
    ///
    /// ```swift
    /// let page = try await ListBranches(owner: "apple", repo: "swift", perPage: 30).callWithMetadata()
    /// print(page.payload.count, page.value(forHeader: "Link") ?? "last page")
    /// ```
    ///
    /// - Throws: As ``call()->Self.ReturnPayloadType``.
    public func callWithMetadata() async throws -> EndpointResponse<ReturnPayloadType> {
        try await callWithMetadata(on: defaultServer())
    }

    /// Calls the endpoint on `server` and returns its payload with the response's status and headers.
    ///
    /// ```swift
    /// let reply = try await PurchaseCheer(identifier: id, transactionId: tid).callWithMetadata(on: server)
    /// print(reply.statusCode, reply.payload.balance)
    /// ```
    ///
    /// - Throws: As ``call(on:)->Self.ReturnPayloadType``.
    public func callWithMetadata(on server: APIServer) async throws -> EndpointResponse<ReturnPayloadType> {
        try await perform(on: server)
    }

    /// The one pipeline of every call: builds, sends and decodes it, with the variations in
    /// `options` (another URL, upload progress, a tool call's observers); a streamed payload type
    /// returns at the response's head. Every ``EndpointError`` it throws names the operation.
    package func perform(on server: APIServer, options: CallOptions = CallOptions()) async throws -> EndpointResponse<ReturnPayloadType> {
        do {
            return try await performUnnamed(on: server, options: options)
        } catch let error as EndpointError {
            throw error.naming(Self.self)
        }
    }

    /// The request, ready to send: built on `server` (its overrides applied), sent to `url` when
    /// one is given, its body written to disk when it streams from there.
    package func prepare(on server: APIServer, at url: URL?) async throws -> PreparedRequest {
        var prepared = try RequestBuilder.request(for: self, on: server)
        if let url {
            try RequestBuilder.retarget(&prepared, to: url, on: server)
        }
        if prepared.pendingBody != nil {
            try await prepared.writePendingBody()
        }
        return prepared
    }

    /// The most response bytes kept for a call on `server`: the endpoint's limit, else the server's.
    static func responseLimit(on server: APIServer) -> Int {
        max(maximumResponseSize ?? server.maximumResponseSize, 0)
    }

    private func performUnnamed(on server: APIServer, options: CallOptions) async throws -> EndpointResponse<ReturnPayloadType> {
        let server = server.overridden()
        let prepared = try await prepare(on: server, at: options.url)
        do {
            return try await perform(prepared, on: server, options: options)
        } catch let error as EndpointError {
            throw error.naming(Self.self, route: prepared.route)
        }
    }

    private func perform(_ prepared: PreparedRequest, on server: APIServer, options: CallOptions) async throws -> EndpointResponse<ReturnPayloadType> {
        if let streamed = ReturnPayloadType.self as? any StreamedPayload.Type {
            return try await performStreaming(streamed, prepared: prepared, on: server, options: options)
        }
        let request = prepared.request
        let body: Data
        let response: HTTPURLResponse
        let delivery = Locked<(any Sendable)?>(nil)  // what the transport delivers decoded
        do {
            let answer: MessageBody
            (answer, response) = try await MiddlewareChain.send(prepared, for: self, on: server, options: options, delivery: delivery)
            switch answer {
            case .data(let bytes): body = bytes
            // A middleware answered with a stream of its own: the payload needs the whole body.
            case .stream(let stream): body = try await stream.collect(upTo: Self.responseLimit(on: server))
            }
        } catch {
            throw Self.transportFailure(error, request: request)
        }
        let payload = try ResponseDecoder.decode(
            ReturnPayloadType.self, from: body, response: response, request: request, decoder: server.decoder,
            errorPayloadType: Self.errorPayloadType ?? server.errorPayloadType, delivered: delivery.value)
        options.receivedBody?(body)
        return EndpointResponse(payload: payload, httpResponse: response, request: request)
    }

    /// The payload of a call on the endpoint's own ``server`` (or ``APIServer/default``): the one-line form of ``call()->Self.ReturnPayloadType``.
    ///
    /// ```swift
    /// let balance = try await PurchaseCheer(identifier: id, transactionId: tid).response.balance
    /// ```
    public var response: ReturnPayloadType {
        get async throws { try await call() }
    }
}

extension Endpoint where ReturnPayloadType == EmptyPayload {
    /// Calls an endpoint that returns nothing on its own ``server`` (or ``APIServer/default``); there is
    /// no result to use.
    ///
    /// ```swift
    /// try await DeleteCheer(id: 7).call()
    /// ```
    @discardableResult
    public func call() async throws -> EmptyPayload {
        try await call(on: defaultServer())
    }

    /// Calls an endpoint that returns nothing on `server`; there is no result to use.
    ///
    /// ```swift
    /// try await DeleteCheer(id: 7).call(on: staging)
    /// ```
    @discardableResult
    public func call(on server: APIServer) async throws -> EmptyPayload {
        try await callWithMetadata(on: server).payload
    }
}

extension Endpoint {
    /// The endpoint's own ``server``, else ``APIServer/default``, else an error saying that none is set.
    func defaultServer() throws(EndpointError) -> APIServer {
        if let bound = Self.server { return bound }
        guard let server = APIServer.default else {
            throw EndpointError(
                kind: .invalidRequest,
                route: endpoint.description,
                reason: "no server is configured: set APIServer.default at start-up, or pass a server with call(on:)")
        }
        return server
    }

    /// A transport error as the caller sees it: cancellation stays cancellation, and everything
    /// else becomes an ``EndpointError`` naming the endpoint.
    static func transportFailure(_ error: any Error, request: URLRequest) -> any Error {
        if error is CancellationError || error is EndpointError {
            return error
        }
        if Task.isCancelled, let urlError = error as? URLError, urlError.code == .cancelled {
            return CancellationError()
        }
        let endpoint = EndpointError.route(of: request)
        switch error as? TransportRefusal {
        case .redirect(let location, let reason, let response):
            return EndpointError(
                kind: .redirectRefused, route: endpoint,
                reason: "the server answered \(EndpointError.statusText(response.statusCode)) with Location \"\(location)\", which was not followed because \(reason); nothing was sent there",
                request: request, response: response, underlyingError: error)
        case .tooLarge(let limit, let response):
            return EndpointError(
                kind: .responseTooLarge, route: endpoint,
                reason: "the response body is larger than \(limit) bytes, so the call was stopped (raise APIServer.maximumResponseSize, or the endpoint's static maximumResponseSize, if it is expected)",
                request: request, response: response, underlyingError: error)
        case .streamAlreadyRead:
            return EndpointError(
                kind: .invalidRequest, route: endpoint,
                reason: "a middleware passed a request body stream that was already sent or read; a stream from the network is read once, so a body sent again (a retry) must be .data or ByteStream(contentsOf:)",
                request: request, underlyingError: error)
        case nil:
            let detail = (error as? URLError)?.explanation ?? "\(error)"
            return EndpointError(
                kind: .transportFailed, route: endpoint,
                reason: "the request failed: \(detail)", request: request, underlyingError: error)
        }
    }
}
