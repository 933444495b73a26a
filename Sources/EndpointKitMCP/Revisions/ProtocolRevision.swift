import EndpointKit
import Foundation

/// The rules one revision of the Model Context Protocol sets for a server. Each rule set is a type
/// conforming to this, in a file of its own in this folder, and ``MCPServer/revisions`` lists one
/// value per version, newest first: a new revision is a row there, or a file and a row.
protocol ProtocolRevision: Sendable {
    /// The version, such as `2026-07-28`.
    var version: String { get }
    /// Whether each request names the revision in its `_meta` and stands alone (no `initialize`,
    /// no session); else a client agrees the version once, in `initialize`.
    var isStateless: Bool { get }
    /// The methods of the revision besides `tools/list` and `tools/call`.
    var lifecycleMethods: Set<String> { get }
    /// Whether a client may send a JSON-RPC batch (an array of messages).
    var allowsBatches: Bool { get }
    /// Whether structured content may be any JSON value, a list as it is; else it is an object,
    /// and any other payload sits under `result`.
    var unwrapsStructuredContent: Bool { get }
    /// Whether a server may answer a call with an `InputRequiredResult` and take the answer in the
    /// retry (multi round-trip requests): how a write is confirmed by the user.
    var hasInputRequests: Bool { get }
    /// Whether a client with `capabilities` can show its user a form.
    func canAskUser(_ capabilities: JSONValue) -> Bool
    /// `result` as the revision sends every result (2026-07-28: with `resultType` and the server
    /// in `_meta`).
    func completed(_ result: JSONValue, server: JSONValue, type: String) -> JSONValue
    /// A `tools/list` result as the revision sends it (2026-07-28: with cache hints).
    func listed(_ result: JSONValue, server: JSONValue, cacheScope: String) -> JSONValue
}

// MARK: - Default implementations: the rules of the revisions that open with `initialize`

extension ProtocolRevision {
    var isStateless: Bool { false }
    var lifecycleMethods: Set<String> { ["initialize", "ping"] }
    var allowsBatches: Bool { false }
    var unwrapsStructuredContent: Bool { false }
    var hasInputRequests: Bool { false }
    func canAskUser(_ capabilities: JSONValue) -> Bool { false }
    func completed(_ result: JSONValue, server: JSONValue, type: String) -> JSONValue { result }
    func listed(_ result: JSONValue, server: JSONValue, cacheScope: String) -> JSONValue { result }
}

extension MCPServer {
    /// The revisions this server speaks, newest first.
    static let revisions: [any ProtocolRevision] = [
        StatelessRevision(version: "2026-07-28"),
        SessionRevision(version: "2025-11-25"),
        SessionRevision(version: "2025-06-18"),
        SessionRevision(version: "2025-03-26", allowsBatches: true),
        SessionRevision(version: "2024-11-05"),
    ]

    /// The revision of `version`, when this server speaks it.
    static func revision(_ version: String?) -> (any ProtocolRevision)? {
        revisions.first { $0.version == version }
    }

    /// The revision a request without a version of its own is served by: the one its transport
    /// names (an HTTP header, or what standard input and output agreed in `initialize`), else the
    /// newest that opens with `initialize`.
    static func sessionRevision(_ version: String?) -> any ProtocolRevision {
        revision(version).flatMap { $0.isStateless ? nil : $0 } ?? revisions.first { !$0.isStateless }!
    }

    /// The revision a request is served by, and what its client said it can do.
    struct ClientRevision: Sendable {
        let rules: any ProtocolRevision
        /// The client's capabilities as the request declared them (2026-07-28), else none.
        let capabilities: JSONValue

        var canAskUser: Bool { rules.canAskUser(capabilities) }
    }
}
