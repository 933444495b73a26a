import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Contender 1: EndpointKit with its defaults.
public enum EndpointKitClient {
    public struct ListBranches: Endpoint {
        public var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
        public let owner: String
        public let repo: String
        public let perPage: Int?
        public typealias ReturnPayloadType = [Branch]
        public init(owner: String, repo: String, perPage: Int?) {
            self.owner = owner
            self.repo = repo
            self.perPage = perPage
        }
    }

    public struct Branch: Decodable, Sendable {
        public let name: String
        public let commit: Commit
        public let protected: Bool
        public let protectionUrl: String
        public struct Commit: Decodable, Sendable {
            public let sha: String
            public let url: String
        }
    }

    public struct PurchaseCheer: Endpoint {
        public let endpoint = Restful(.post, "purchase_cheer", version: 2)
        public let identifier: String
        public let transactionId: UInt64
        public struct ReturnPayloadType: Decodable, Sendable { public let balance: Int }
        public init(identifier: String, transactionId: UInt64) {
            self.identifier = identifier
            self.transactionId = transactionId
        }
    }

    /// An in-memory transport answering with the canned fixtures.
    public struct CannedTransport: HTTPTransport {
        public init() {}
        public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            let (data, response) = Fixtures.answer(to: request)
            return (.data(data), response)
        }
    }

    /// A server with the in-memory transport.
    public static let inMemory = APIServer(origin: Fixtures.origin, transport: CannedTransport())

    public static func listBranches(on server: APIServer) async throws -> Int {
        try await ListBranches(owner: "apple", repo: "swift", perPage: 30).call(on: server).count
    }

    public static func purchaseCheer(on server: APIServer) async throws -> Int {
        try await PurchaseCheer(identifier: "cheer.large", transactionId: 2_000_000_000_001).call(on: server).balance
    }
}
