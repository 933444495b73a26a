#if Generator  // the package trait that brings OpenAPIKit and Yams; without it this module is empty
/// Why a document cannot be turned into endpoints: where in it (a JSON path such as
/// `#/paths/~1pets/get/parameters/0`), what is wrong, and what to do about it.
///
/// ```swift
/// catch let error as GenerationError { print("\(error.path): \(error.problem). \(error.fix)") }
/// ```
public struct GenerationError: Error, Equatable, CustomStringConvertible {
    /// The JSON path of the offending part of the document.
    public let path: String
    /// What is wrong there.
    public let problem: String
    /// What to change so that generation can go on.
    public let fix: String

    /// An error at `path`.
    ///
    /// ```swift
    /// throw GenerationError(path: "#/openapi", problem: "version 2.0 is not 3.0 or 3.1", fix: "Convert it")
    /// ```
    public init(path: String, problem: String, fix: String) {
        self.path = path
        self.problem = problem
        self.fix = fix
    }

    /// `path: problem. fix`, one line.
    public var description: String { "\(path): \(problem). \(fix)" }
}
#endif
