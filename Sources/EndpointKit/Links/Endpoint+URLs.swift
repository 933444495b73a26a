import Foundation

// MARK: - Calling a URL the server handed out

extension Endpoint {
    /// Calls the endpoint at `url`, a URL the server handed out, and returns its payload.
    ///
    /// `url` replaces the endpoint's path and query and is sent as given, query included: a
    /// registry's upload session (``EndpointResponse/location``), a `Link` header's next page
    /// (``EndpointResponse/links``), Kinto's `Next-Page`. The endpoint brings everything else: method, body,
    /// headers, and the server's middlewares, coders and limits. Its ``QueryItem`` properties are
    /// added after the URL's own query (the registry's `digest` after the session's `_state`);
    /// its other query parameters are not, since the server's URL already carries them. A
    /// relative `url` is resolved against the endpoint's base URL (origin and path prefix).
    ///
    /// ```swift
    /// let started = try await StartUpload(name: "library/ubuntu").callWithMetadata()
    /// if let session = started.location {
    ///     try await FinishUpload(name: "library/ubuntu", digest: digest, blob: blob).call(at: session)
    /// }
    /// ```
    ///
    /// Credentials go only to the server's own origin: at another origin the request carries no
    /// `Authorization`, `Proxy-Authorization` or `Cookie` header, and authorization middlewares add
    /// none. Schemes other than `http` and `https`, and `http` from an `https` server, fail with
    /// ``EndpointError/Kind/invalidRequest`` before anything is sent.
    ///
    /// - Parameters:
    ///   - url: The URL to call, absolute or relative to the endpoint's base URL.
    ///   - server: Where the call belongs; `nil` (the default) for the endpoint's own
    ///     ``server`` or ``APIServer/default``.
    public func call(at url: URL, on server: APIServer? = nil) async throws -> ReturnPayloadType {
        try await callWithMetadata(at: url, on: server).payload
    }

    /// Calls the endpoint at `url`, a URL the server handed out, and returns its payload with the
    /// response's status and headers. See `call(at:on:)`.
    ///
    /// ```swift
    /// let next = try await ListRecords(bucket: "b", collection: "c").callWithMetadata(at: nextPage)
    /// ```
    public func callWithMetadata(at url: URL, on server: APIServer? = nil) async throws -> EndpointResponse<ReturnPayloadType> {
        try await perform(on: server ?? defaultServer(), options: CallOptions(url: url))
    }
}

extension Endpoint where ReturnPayloadType == EmptyPayload {
    /// Calls an endpoint that returns nothing at `url`, a URL the server handed out; there is no
    /// result to use.
    ///
    /// ```swift
    /// try await FinishUpload(name: "library/ubuntu", digest: digest, blob: blob).call(at: session)
    /// ```
    @discardableResult
    public func call(at url: URL, on server: APIServer? = nil) async throws -> EmptyPayload {
        try await callWithMetadata(at: url, on: server).payload
    }
}
