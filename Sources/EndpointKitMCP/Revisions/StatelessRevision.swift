import EndpointKit
import Foundation

/// The rules of 2026-07-28: each request names the revision and the client's capabilities in its
/// `_meta` and stands alone; `server/discover` instead of `initialize` and `ping`; every result
/// says its `resultType` and the server; structured content of any JSON value; a write confirmed
/// by the user through an `InputRequiredResult` when the client can show a form.
struct StatelessRevision: ProtocolRevision {
    let version: String

    var isStateless: Bool { true }
    var lifecycleMethods: Set<String> { ["server/discover"] }
    var unwrapsStructuredContent: Bool { true }
    var hasInputRequests: Bool { true }

    /// `elicitation` with `form`, or empty, which means form.
    func canAskUser(_ capabilities: JSONValue) -> Bool {
        guard let elicitation = capabilities["elicitation"], case .object(let modes) = elicitation else { return false }
        return modes.isEmpty || modes.contains { $0.key == "form" }
    }

    func completed(_ result: JSONValue, server: JSONValue, type: String) -> JSONValue {
        var result = result
        if result["resultType"] == nil { result["resultType"] = .string(type) }
        var meta = result["_meta"] ?? .object([:])
        meta[MCPServer.serverInfoKey] = server
        result["_meta"] = meta
        return result
    }

    /// The tools never change while the server runs: an hour; `cacheScope` private with
    /// authorization, as a shared cache has no business holding a list served to one caller.
    func listed(_ result: JSONValue, server: JSONValue, cacheScope: String) -> JSONValue {
        var result = result
        result["ttlMs"] = .integer(3_600_000)
        result["cacheScope"] = .string(cacheScope)
        return completed(result, server: server, type: "complete")
    }
}
