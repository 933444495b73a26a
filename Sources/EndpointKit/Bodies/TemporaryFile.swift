import Foundation

/// A file in the temporary directory that is deleted when the last reference to it goes away.
final class TemporaryFile: Sendable {
    let url: URL

    /// Creates an empty file, `EndpointKit-<kind>-<UUID>`.
    init(kind: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKit-\(kind)-\(UUID().uuidString)")
        guard FileProtection.createFile(atPath: url.path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
