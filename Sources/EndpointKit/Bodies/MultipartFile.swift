import Foundation

/// A file sent as one part of a `multipart/form-data` body: its bytes, file name and content type.
///
/// Give an endpoint declared with `body: .multipart` a property of this type (or an array of them);
/// the property's name, converted like any other key, is the part's field name. A file read from
/// disk is streamed: its contents are never held in memory whole.
///
/// ```swift
/// struct UploadPhoto: Endpoint {
///     var endpoint: Restful { Restful(.post, "albums/{albumId}/photos", body: .multipart) }
///     let albumId: Int
///     let caption: String
///     let photo: MultipartFile
///     typealias ReturnPayloadType = EmptyPayload
/// }
///
/// let photo = MultipartFile(contentsOf: URL(fileURLWithPath: "/tmp/beach.jpg"), contentType: "image/jpeg")
/// try await UploadPhoto(albumId: 3, caption: "Beach", photo: photo).call()
/// ```
public struct MultipartFile: Encodable, Hashable, Sendable {
    enum Source: Hashable, Sendable {
        case data(Data)
        case file(URL)
    }

    let source: Source
    /// The file name the server sees, e.g. `"beach.jpg"`; any Unicode text.
    public let filename: String
    /// The part's `Content-Type`, e.g. `"image/jpeg"`.
    public let contentType: String

    /// A file whose bytes are in memory.
    ///
    /// ```swift
    /// let notes = MultipartFile(Data("hello".utf8), filename: "notes.txt", contentType: "text/plain")
    /// ```
    public init(_ data: Data, filename: String, contentType: String = "application/octet-stream") {
        source = .data(data)
        self.filename = filename
        self.contentType = contentType
    }

    /// A file on disk, read while the request is sent; `filename` defaults to its last path component.
    ///
    /// ```swift
    /// let video = MultipartFile(contentsOf: movieURL, contentType: "video/mp4")
    /// ```
    public init(contentsOf fileURL: URL, filename: String? = nil, contentType: String = "application/octet-stream") {
        source = .file(fileURL)
        self.filename = filename ?? fileURL.lastPathComponent
        self.contentType = contentType
    }

    /// Throws: a file can only be sent as a part of a multipart body, which EndpointKit writes
    /// itself.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(filename, EncodingError.Context(
            codingPath: encoder.codingPath,
            debugDescription: "a MultipartFile can only be sent in a multipart body: declare the endpoint with Restful(…, body: .multipart)"))
    }
}
