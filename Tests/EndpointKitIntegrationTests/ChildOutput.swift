#if os(macOS) || os(Linux)
import Foundation

/// Where a child process writes its output: a temporary file, read once the child has exited.
///
/// Not a pipe read to its end: Foundation's pipes are inheritable, and tests start children at
/// the same time, so a child started meanwhile (a loopback server that lives for the whole run)
/// can hold a copy of another child's pipe, and the pipe never ends after its writer exits. Seen
/// in CI: `which python3` exited, the loopback server started at that moment kept its pipe open,
/// and every test waited on the Python environment for ever. A file has no end to wait for.
final class ChildOutput: @unchecked Sendable {
    // `handle` is only handed to a `Process` and closed once; `url` never changes.
    let url: URL
    let handle: FileHandle

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("endpointkit-child-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
        _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)  // for the children that are not this one's
    }

    /// What the child wrote: call it after the child has exited.
    var data: Data { (try? Data(contentsOf: url)) ?? Data() }

    var text: String { String(decoding: data, as: UTF8.self) }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}

extension Pipe {
    /// The pipe, its two ends kept from every child but the one it is given to (`Process` hands
    /// that one a copy): a child started meanwhile would otherwise hold a copy of an end, and the
    /// pipe would not end when its own child exits. A pipe made in the instant before this runs
    /// can still be copied: what a test reads to its end goes through a ``ChildOutput``.
    static func keptFromOtherChildren() -> Pipe {
        let pipe = Pipe()
        _ = fcntl(pipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        return pipe
    }
}
#endif
