import Foundation

/// How EndpointKit creates the files it writes for a call: upload bodies, stream overflow and
/// downloads in progress.
///
/// On iOS, tvOS, watchOS and visionOS a file takes the app's default data protection, and in an
/// app whose default is "complete" it becomes unreadable about 10 s after the device locks: an
/// upload or download still running then would fail. These files are created
/// `completeUntilFirstUserAuthentication` instead, the level Apple recommends for background work:
/// encrypted until the first unlock after boot, readable afterwards. macOS and Linux have no such
/// protection classes for these files, so nothing is set there; nor on Mac Catalyst or for an
/// iPhone or iPad app running on a Mac, where `os(iOS)` holds but the Mac's file system has no
/// classes to set. Wherever a class cannot be set, the file is created without one rather than
/// failing the call.
enum FileProtection {
    /// Whether files get a protection class: on iOS, tvOS, watchOS and visionOS devices.
    static var applies: Bool {
        #if targetEnvironment(macCatalyst)
        return false  // `os(iOS)` is true in a Catalyst build, but it runs on macOS
        #elseif os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return !ProcessInfo.processInfo.isiOSAppOnMac  // an iPhone or iPad app on an Apple silicon Mac
        #else
        return false
        #endif
    }

    /// The attributes of a new file.
    static var attributes: [FileAttributeKey: Any]? {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        if applies { return [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication] }
        #endif
        return nil
    }

    /// Options for `Data.write(to:options:)`, with `base` kept.
    static func writingOptions(_ base: Data.WritingOptions) -> Data.WritingOptions {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        if applies { return base.union(.completeFileProtectionUntilFirstUserAuthentication) }
        #endif
        return base
    }

    /// Writes `data` to `url` with the protection class, or without one when it cannot be set.
    static func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
        do {
            try data.write(to: url, options: writingOptions(options))
        } catch where writingOptions(options) != options {
            try data.write(to: url, options: options)
        }
    }

    /// Creates an empty file at `path`, replacing one that is there; `false` when it cannot.
    static func createFile(atPath path: String) -> Bool {
        createFile(atPath: path, attributes: attributes) { FileManager.default.createFile(atPath: $0, contents: nil, attributes: $1) }
    }

    /// Creates the file with `attributes`, and without them when that fails: a protection class
    /// that cannot be set (a Mac, a volume without data protection) must not fail the call.
    static func createFile(
        atPath path: String, attributes: [FileAttributeKey: Any]?, using create: (String, [FileAttributeKey: Any]?) -> Bool
    ) -> Bool {
        if create(path, attributes) { return true }
        return attributes != nil && create(path, nil)
    }
}
