import Foundation

// MARK: - API

extension EndpointResponse {
    /// The file name the server suggests in `Content-Disposition` (RFC 6266; `filename*` preferred),
    /// made safe to save under: no path separators, no leading dots (so never `..`), no control or
    /// bidirectional-override characters, at most 255 bytes. `nil` without one.
    ///
    /// ```swift
    /// let download = try await ExportReport(id: 7).download()
    /// let name = download.suggestedFilename ?? "report.pdf"
    /// try FileManager.default.moveItem(at: download.payload, to: folder.appendingPathComponent(name))
    /// ```
    public var suggestedFilename: String? {
        value(forHeader: "Content-Disposition").flatMap(ContentDisposition.filename)
    }
}
