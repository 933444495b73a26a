import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request: a stub in memory, `URLSession.data(for:)` end to end.
public protocol RequestSender: Sendable {
    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// Answers every request with the canned fixtures.
public struct CannedSender: RequestSender {
    public init() {}
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        Fixtures.answer(to: request)
    }
}

/// Plain `URLSession.data(for:)`: the "raw URLSession" baseline.
public struct SessionSender: RequestSender {
    let session: URLSession
    public init(session: URLSession) { self.session = session }
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

public struct HTTPStatusError: Error { public let status: Int }

/// How the hand-written contenders set their headers: one `setValue(_:forHTTPHeaderField:)` call
/// per header, or one `allHTTPHeaderFields` assignment (cheaper in corelibs-foundation).
public enum HeaderStyle: Sendable {
    case oneByOne, allAtOnce
}

/// Contender 2: what a careful developer writes by hand with URLRequest, JSONEncoder and
/// JSONDecoder using the snake_case key strategies. Coders are created once.
public enum HandWrittenClient {
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

    struct PurchaseRequest: Encodable {
        let identifier: String
        let transactionId: UInt64
    }

    struct Balance: Decodable {
        let balance: Int
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    public static func listBranches(
        origin: String, sender: some RequestSender, headers: HeaderStyle = .oneByOne
    ) async throws -> Int {
        guard let url = URL(string: "\(origin)/api/v1/repos/apple/swift/branches?per_page=30") else {
            throw URLError(.badURL)
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        switch headers {
        case .oneByOne: request.setValue("application/json", forHTTPHeaderField: "Accept")
        case .allAtOnce: request.allHTTPHeaderFields = ["Accept": "application/json"]
        }
        let (data, response) = try await sender.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw HTTPStatusError(status: response.statusCode) }
        return try decoder.decode([Branch].self, from: data).count
    }

    public static func purchaseCheer(
        origin: String, sender: some RequestSender, headers: HeaderStyle = .oneByOne
    ) async throws -> Int {
        guard let url = URL(string: "\(origin)/api/v2/purchase_cheer") else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        switch headers {
        case .oneByOne:
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .allAtOnce:
            request.allHTTPHeaderFields = ["Accept": "application/json", "Content-Type": "application/json"]
        }
        request.httpBody = try encoder.encode(PurchaseRequest(identifier: "cheer.large", transactionId: 2_000_000_000_001))
        let (data, response) = try await sender.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw HTTPStatusError(status: response.statusCode) }
        return try decoder.decode(Balance.self, from: data).balance
    }
}

/// Contender 3: the same hand-written code with explicit `CodingKeys` and no key strategy, the
/// floor for decoding.
public enum ExplicitKeysClient {
    public struct Branch: Decodable, Sendable {
        public let name: String
        public let commit: Commit
        public let protected: Bool
        public let protectionURL: String
        enum CodingKeys: String, CodingKey {
            case name, commit, protected
            case protectionURL = "protection_url"
        }
        public struct Commit: Decodable, Sendable {
            public let sha: String
            public let url: String
        }
    }

    struct PurchaseRequest: Encodable {
        let identifier: String
        let transactionID: UInt64
        enum CodingKeys: String, CodingKey {
            case identifier
            case transactionID = "transaction_id"
        }
    }

    struct Balance: Decodable {
        let balance: Int
    }

    static let decoder = JSONDecoder()
    static let encoder = JSONEncoder()

    public static func listBranches(
        origin: String, sender: some RequestSender, headers: HeaderStyle = .oneByOne
    ) async throws -> Int {
        guard let url = URL(string: "\(origin)/api/v1/repos/apple/swift/branches?per_page=30") else {
            throw URLError(.badURL)
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        switch headers {
        case .oneByOne: request.setValue("application/json", forHTTPHeaderField: "Accept")
        case .allAtOnce: request.allHTTPHeaderFields = ["Accept": "application/json"]
        }
        let (data, response) = try await sender.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw HTTPStatusError(status: response.statusCode) }
        return try decoder.decode([Branch].self, from: data).count
    }

    public static func purchaseCheer(
        origin: String, sender: some RequestSender, headers: HeaderStyle = .oneByOne
    ) async throws -> Int {
        guard let url = URL(string: "\(origin)/api/v2/purchase_cheer") else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        switch headers {
        case .oneByOne:
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .allAtOnce:
            request.allHTTPHeaderFields = ["Accept": "application/json", "Content-Type": "application/json"]
        }
        request.httpBody = try encoder.encode(PurchaseRequest(identifier: "cheer.large", transactionID: 2_000_000_000_001))
        let (data, response) = try await sender.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw HTTPStatusError(status: response.statusCode) }
        return try decoder.decode(Balance.self, from: data).balance
    }
}
