#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
/// A defect of a real document that the loader repaired before reading it, reported so that the
/// document's authors can fix it at the source.
///
/// ```swift
/// for repair in loaded.repairs { print("repaired \(repair)") }
/// ```
public struct Repair: Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of what was repaired.
    public let path: String
    /// What was wrong and what it became.
    public let change: String

    /// A repair at `path`.
    ///
    /// ```swift
    /// Repair(path: "#/info/version", change: "missing: set to \"0.0.0\"")
    /// ```
    public init(path: String, change: String) {
        self.path = path
        self.change = change
    }

    /// `path: change`, one line.
    public var description: String { "\(path): \(change)" }
}
#endif
