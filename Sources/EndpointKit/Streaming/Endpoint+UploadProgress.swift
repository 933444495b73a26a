import Foundation

// MARK: - API

extension Endpoint {
    /// Calls the endpoint, reporting how much of the request body has been sent: for an upload
    /// from memory or a multipart body streamed from files.
    ///
    /// ```swift
    /// let photo = try await UploadPhoto(file: MultipartFile(url: picked)).call { progress in
    ///     sent = progress.fractionCompleted ?? 0  // on the caller's actor: a view's state may change here
    /// }
    /// ```
    ///
    /// ``URLSessionTransport`` reports as the body goes out; another transport reports the whole
    /// body once it has been sent.
    ///
    /// - Parameters:
    ///   - server: The server to call; `nil` for the endpoint's (``Endpoint/server`` or
    ///     ``APIServer/default``).
    ///   - isolation: The actor `uploadProgress` runs on: the caller's, which you do not pass.
    ///   - uploadProgress: Called on the caller's actor (the main actor in app code, so it may
    ///     update a view's state) with the body bytes sent so far and the body's size; again from
    ///     the start if the request is sent again (a retry, a redirect). At most one call every
    ///     50 ms, and only the newest count while the actor is busy; the final one (the whole body)
    ///     is always made, before the call returns.
    /// - Returns: The decoded payload.
    @discardableResult
    public func call(
        on server: APIServer? = nil, isolation: isolated (any Actor)? = #isolation,
        uploadProgress: @escaping (TransferProgress) -> Void
    ) async throws -> ReturnPayloadType {
        let server = try server ?? defaultServer()
        return try await ProgressRelay.run(isolation: isolation, report: uploadProgress) { (throttle: ProgressThrottle?) in
            var options = CallOptions()
            if let throttle { options.uploadProgress = { throttle($0) } }
            return try await perform(on: server, options: options).payload
        }
    }
}
