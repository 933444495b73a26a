@testable import EndpointKit
@testable import EndpointKitMCP
import Testing

/// Each revision's rules, read from its value: what a new revision has to state.
@Suite struct ProtocolRevisionTests {
    @Test func `the table lists every version newest first, with the rules each has`() {
        #expect(MCPServer.supportedVersions == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        let rules = MCPServer.revisions.map { "\($0.version): \($0.isStateless ? "stateless" : "initialize")\($0.allowsBatches ? ", batches" : "")"
            + "\($0.unwrapsStructuredContent ? ", any structured content" : "")\($0.hasInputRequests ? ", input requests" : "")" }
        #expect(rules == [
            "2026-07-28: stateless, any structured content, input requests",
            "2025-11-25: initialize", "2025-06-18: initialize", "2025-03-26: initialize, batches", "2024-11-05: initialize",
        ])
        #expect(MCPServer.revision("2026-07-28")?.lifecycleMethods == ["server/discover"])
        #expect(MCPServer.revision("2025-03-26")?.lifecycleMethods == ["initialize", "ping"])
        #expect(MCPServer.revision("1999-01-01") == nil)
    }

    @Test func `a request without a version of its own is served by the session revision its transport names`() {
        #expect(MCPServer.sessionRevision("2025-03-26").version == "2025-03-26")
        #expect(MCPServer.sessionRevision(nil).version == "2025-11-25")
        #expect(MCPServer.sessionRevision("2026-07-28").version == "2025-11-25")  // stateless: named per request, not here
    }

    @Test func `2026-07-28 completes every result and asks users who can see a form`() throws {
        let current = try #require(MCPServer.revision("2026-07-28"))
        let server: JSONValue = ["name": "notes", "version": "1"]
        #expect(current.completed(["content": []], server: server, type: "complete").jsonText()
            == #"{"content":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"notes","version":"1"}}}"#)
        #expect(current.listed(["tools": []], server: server, cacheScope: "private").jsonText()
            == #"{"tools":[],"ttlMs":3600000,"cacheScope":"private","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"notes","version":"1"}}}"#)
        #expect(current.canAskUser(["elicitation": ["form": [:]]]))
        #expect(current.canAskUser(["elicitation": [:]]))  // empty means form
        #expect(!current.canAskUser(["elicitation": ["url": [:]]]))
        #expect(!current.canAskUser([:]))
        let earlier = try #require(MCPServer.revision("2025-11-25"))
        #expect(earlier.completed(["content": []], server: server, type: "complete").jsonText() == #"{"content":[]}"#)
        #expect(!earlier.canAskUser(["elicitation": ["form": [:]]]))
    }
}
