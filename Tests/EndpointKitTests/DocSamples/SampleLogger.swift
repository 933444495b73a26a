// What README's samples assume exists in an app, so that they compile as written.

/// Stands in for `os.Logger` or swift-log's `Logger` in the logging sample.
struct SampleLogger: Sendable {
    func debug(_ message: String) {}
}
