import Foundation

/// How EndpointKit creates the files it writes for a call: upload bodies, stream overflow and
/// downloads in progress.
///
/// On iOS, tvOS, watchOS and visionOS a file takes the app's default data protection, and in an
/// app whose default is "complete" it becomes unreadable about 10 s after the device locks: an
/// upload or download still running then would fail. These files are created
/// `completeUntilFirstUserAuthentication` instead, the level Apple recommends for background work:
/// encrypted until the first unlock after boot, readable afterwards. macOS and Linux have no such
/// protection classes for these files, so nothing is set there.
enum FileProtection {
    /// The attributes of a new file.
    static var attributes: [FileAttributeKey: Any]? {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication]
        #else
        return nil
        #endif
    }

    /// Options for `Data.write(to:options:)`, with `base` kept.
    static func writingOptions(_ base: Data.WritingOptions) -> Data.WritingOptions {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return base.union(.completeFileProtectionUntilFirstUserAuthentication)
        #else
        return base
        #endif
    }

    /// Creates an empty file at `path`, replacing one that is there; `false` when it cannot.
    static func createFile(atPath path: String) -> Bool {
        FileManager.default.createFile(atPath: path, contents: nil, attributes: attributes)
    }
}
