import Foundation

extension EndpointResponse {
    /// The links of the response's `Link` header (RFC 8288), each target resolved against the
    /// response's URL; empty without one.
    ///
    /// ```swift
    /// let page = try await ListBranches(owner: "apple", repo: "swift").callWithMetadata()
    /// let next = page.links["next"]?.url   // call it with `call(at:)`
    /// ```
    public var links: WebLinks {
        guard let header = value(forHeader: "Link") else { return WebLinks() }
        return WebLinks(header: header, base: httpResponse.url ?? request.url)
    }

    /// The response's `Location` header as a URL, resolved against the response's URL (a
    /// registry's upload session, a created resource); `nil` without one or when it is not a URL.
    ///
    /// ```swift
    /// let started = try await StartUpload(name: "library/ubuntu").callWithMetadata()
    /// let session = started.location   // call it with `call(at:)`
    /// ```
    public var location: URL? {
        url(inHeader: "Location")
    }

    /// The URL in the header `name` (Kinto's `Next-Page`, say), resolved against the response's
    /// URL; `nil` without one or when it is not a URL.
    ///
    /// ```swift
    /// let next = page.url(inHeader: "Next-Page")
    /// ```
    public func url(inHeader name: String) -> URL? {
        guard let value = value(forHeader: name)?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return PercentEncoding.resolve(value, against: httpResponse.url ?? request.url)
    }
}
