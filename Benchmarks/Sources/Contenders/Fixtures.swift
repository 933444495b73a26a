import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bytes every contender gets back, and the server sends in the end-to-end runs.
public enum Fixtures {
    /// GitHub's list-branches answer: 30 branches, snake_case keys, 9.6 KB.
    public static let branchesJSON: Data = {
        let names = ["main", "release/5.9", "release/5.10", "release/6.0", "release/6.1", "release/6.2"]
            + (0..<24).map { "feature/async-\($0)-improvements" }
        let entries = names.enumerated().map { index, name in
            let sha = (0..<20).map { String(format: "%02x", ($0 * 7 + index * 13) & 0xFF) }.joined()
            let protected = index < 6
            return """
                {"name":"\(name)","commit":{"sha":"\(sha)","url":"https://api.github.com/repos/apple/swift/commits/\(sha)"},\
                "protected":\(protected),"protection_url":"https://api.github.com/repos/apple/swift/branches/\(name)/protection"}
                """
        }
        return Data(("[" + entries.joined(separator: ",") + "]").utf8)
    }()

    /// The purchase answer.
    public static let balanceJSON = Data(#"{"balance":200}"#.utf8)

    /// The path prefix both operations share, after the origin.
    public static let branchesPath = "/api/v1/repos/apple/swift/branches"
    public static let purchasePath = "/api/v2/purchase_cheer"

    /// The in-memory origin.
    public static let origin = URL(string: "http://127.0.0.1:8080")!

    /// The canned answer for a request: branches for GET, the balance otherwise.
    ///
    /// The response is built afresh for every call, as a real transport does: building it costs
    /// about 57 k instructions, which a shared instance would hide from every contender.
    public static func answer(to request: URLRequest) -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(
            url: request.url ?? origin, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"])!
        return (request.httpMethod == "GET" ? branchesJSON : balanceJSON, response)
    }
}
