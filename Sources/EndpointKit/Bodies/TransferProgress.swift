/// How far a transfer has come: the bytes sent or received so far, and how many are expected.
///
/// ```swift
/// let file = try await ExportReport(id: 7).download(to: destination) { progress in
///     print("\(progress.completed) of \(progress.expected.map(String.init) ?? "?") bytes")
/// }
/// ```
public struct TransferProgress: Sendable, Equatable {
    /// The bytes transferred so far; for a resumed download, including those from before.
    public var completed: Int64
    /// The bytes the whole transfer has, when known (`Content-Length`, the upload's size).
    public var expected: Int64?

    /// Creates a progress value, for tests.
    ///
    /// ```swift
    /// let half = TransferProgress(completed: 50, expected: 100)
    /// ```
    public init(completed: Int64, expected: Int64?) {
        self.completed = completed
        self.expected = expected
    }

    /// The part done, from 0 to 1, when the total is known.
    ///
    /// ```swift
    /// bar.value = progress.fractionCompleted ?? 0
    /// ```
    public var fractionCompleted: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(Double(completed) / Double(expected), 1)
    }
}
