import Foundation

/// The rules of 2024-11-05 to 2025-11-25: a client agrees the version in `initialize`, then sends
/// `tools/list` and `tools/call` (and `ping`); structured content is an object; the client asks
/// its user before a tool call itself. 2025-03-26 alone has JSON-RPC batches.
struct SessionRevision: ProtocolRevision {
    let version: String
    var allowsBatches = false
}
