import Foundation

// MARK: - API

extension Endpoint {
    /// Calls the endpoint, reporting how much of the request body has been sent: for an upload
    /// from memory or a multipart body streamed from files.
    ///
    /// ```swift
    /// let photo = try await UploadPhoto(file: MultipartFile(url: picked)).call { progress in
    ///     print("\(Int((progress.fractionCompleted ?? 0) * 100)) %")
    /// }
    /// ```
    ///
    /// ``URLSessionTransport`` reports as the body goes out; another transport reports the whole
    /// body once it has been sent.
    ///
    /// - Parameters:
    ///   - server: The server to call; `nil` for the endpoint's (``Endpoint/server`` or
    ///     ``Server/default``).
    ///   - uploadProgress: Called (on any thread) with the body bytes sent so far and the body's
    ///     size; again from the start if the request is sent again (a retry, a redirect). At most
    ///     one call every 50 ms; the first and the final one (the whole body) are always made.
    /// - Returns: The decoded payload.
    @discardableResult
    public func call(
        on server: Server? = nil, uploadProgress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> ReturnPayloadType {
        let throttle = ProgressThrottle(uploadProgress)
        return try await perform(on: server ?? defaultServer(), options: CallOptions(uploadProgress: { throttle($0) })).payload
    }
}
