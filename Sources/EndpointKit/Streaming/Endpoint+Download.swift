import Foundation

// MARK: - API

extension Endpoint {
    /// Calls the endpoint and writes the response body to a file as it arrives, in constant
    /// memory, reporting progress; the payload type is not used.
    ///
    /// ```swift
    /// let download = try await ExportReport(id: 7).download(to: destination) { progress in
    ///     fraction = progress.fractionCompleted ?? 0  // on the caller's actor: a view's state may change here
    /// }
    /// print(download.payload, download.statusCode, download.suggestedFilename ?? "-")
    /// ```
    ///
    /// The body is written to a file next to `destination` and moved into place once it is
    /// complete, replacing any file there; on failure or cancellation it is removed, and nothing is
    /// left at `destination`. Without a destination, the file is a new one in the temporary
    /// directory, which you move or delete.
    ///
    /// With `resumable`, an interrupted download keeps what it has received (in
    /// `<destination>.partial`, with the server's validator in `<destination>.partial.validator`),
    /// and the next call with the same destination asks only for the rest (`Range` with `If-Range`,
    /// so a file that changed on the server is downloaded again from the start; so is one whose
    /// server ignores `Range`). Resuming needs a destination and a server that sends a strong
    /// `ETag` or a `Last-Modified` date. Two versions of a file are never glued together: a `206`
    /// whose validator is not the one sent (a proxy that ignored `If-Range`), or whose total size
    /// is not the one first recorded, discards the partial file and starts over.
    ///
    /// The request asks for the body without content coding (`Accept-Encoding: identity`), so that
    /// sizes and ranges count the bytes written. The server's ``APIServer/maximumResponseSize`` limits
    /// what is held in memory, so it does not apply; the endpoint's static
    /// ``Endpoint/maximumResponseSize``, when set, limits the file.
    ///
    /// - Parameters:
    ///   - destination: Where the file goes; `nil` for a new temporary file.
    ///   - server: The server to call; `nil` for the endpoint's (``Endpoint/server`` or
    ///     ``APIServer/default``).
    ///   - resumable: Whether to keep an interrupted download and resume it on the next call.
    ///   - isolation: The actor `progress` runs on: the caller's, which you do not pass.
    ///   - progress: Called as bytes arrive, on the caller's actor (the main actor in app code, so
    ///     it may update a view's state): bytes written so far, including those from before a
    ///     resumption, and the size of the whole file when the server says it. At most one call
    ///     every 50 ms, and only the newest count while the actor is busy; the final one (the whole
    ///     file) is always made, before the call returns.
    /// - Returns: The response: its ``EndpointResponse/payload`` is the file's URL (`destination`, or the
    ///   temporary file); status (`200`, `206` when resumed, `416` when the partial file was
    ///   already whole), headers, the final URL after redirects in `httpResponse.url`, and
    ///   ``EndpointResponse/suggestedFilename`` from `Content-Disposition`.
    /// - Throws: An ``EndpointError``, as for any call, or `CancellationError`.
    @discardableResult
    public func download(
        to destination: URL? = nil, on server: APIServer? = nil, resumable: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        progress: ((TransferProgress) -> Void)? = nil
    ) async throws -> EndpointResponse<URL> {
        do {
            return try await ProgressRelay.run(isolation: isolation, report: progress) { throttle in
                try await downloadUnnamed(to: destination, on: server, resumable: resumable, progress: throttle)
            }
        } catch let error as EndpointError {
            throw error.naming(Self.self)
        }
    }

    private func downloadUnnamed(
        to destination: URL?, on server: APIServer?, resumable: Bool, progress: ProgressThrottle?
    ) async throws -> EndpointResponse<URL> {
        let server = try (server ?? defaultServer()).overridden()
        var prepared = try await prepare(on: server, at: nil)
        prepared.request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let target = destination ?? FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKit-\(UUID().uuidString)")
        let file = DownloadFile(
            target: target, resumable: resumable && destination != nil, limit: Self.maximumResponseSize,
            label: prepared.route)
        do {
            let (url, response) = try await file.download(progress: progress) { range in
                var request = prepared
                if let range {
                    request.request.setValue("bytes=\(range.offset)-", forHTTPHeaderField: "Range")
                    request.request.setValue(range.validator, forHTTPHeaderField: "If-Range")
                }
                return try await openStream(request, on: server)
            }
            return EndpointResponse(payload: url, httpResponse: response, request: prepared.request)
        } catch let error as EndpointError {
            throw error.naming(Self.self, route: prepared.route)
        }
    }
}
