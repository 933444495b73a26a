import EndpointKit
import EndpointKitContract
import Foundation

// The endpoints of README's quick start and of the DocC articles, with fuller payloads.
// Each is also `Decodable`, with `endpoint` computed, so that `Demo --openapi` can describe them
// (OpenAPIDocument derives parameters and bodies from the decoding the compiler synthesizes).

/// POST /api/v2/purchase_cheer → {"balance": 200}
struct PurchaseCheer: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "purchase_cheer", version: 2) }  // POST /api/v2/purchase_cheer
    let identifier: String
    let transactionId: UInt64
    struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
}

/// GET /api/v1/cheer_history?user_id=… → {"history": [{creator, amount, product, date, comments}]}
struct CheerHistory: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "cheer_history") }  // GET /api/v1/cheer_history?user_id=…
    let userId: Int

    struct ReturnPayloadType: Decodable, Sendable {
        let history: [Cheer]
    }

    struct Cheer: Decodable, Sendable {
        let creator: String
        let amount: Int
        let product: String
        let date: Date
        let comments: [Comment]?
    }

    struct Comment: Decodable, Sendable {
        let signature: String?
        let body: String?
    }
}

/// GitHub's "List branches": GET /repos/{owner}/{repo}/branches?per_page=…, unversioned.
struct ListBranches: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches", prefix: "") }
    let owner: String
    let repo: String
    let perPage: Int?
    typealias ReturnPayloadType = [Branch]
}

struct Branch: Decodable, Sendable {
    let name: String
    let commit: Commit
    let protected: Bool
    let protectionUrl: URL?

    struct Commit: Decodable, Sendable {
        let sha: String
        let url: URL
    }
}

/// A multipart upload: a text part and a file part.
struct UploadPhoto: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "albums/{albumId}/photos", body: .multipart) }
    let albumId: Int
    let caption: String
    let photo: MultipartFile
    @HeaderField("X-Request-ID") var requestID: String? = nil

    struct ReturnPayloadType: Decodable, Sendable {
        let album: String
        let receivedBytes: Int
    }
}

/// POST /api/v1/chat/completions with "stream": true → Server-Sent Events, one chunk per word,
/// then `data: [DONE]` (the shape of OpenAI-compatible APIs).
struct ChatCompletion: Endpoint, Decodable {
    var endpoint: Restful { Restful(.post, "chat/completions") }
    let model: String
    let messages: [ChatMessage]
    var stream = true
    typealias ReturnPayloadType = ServerSentEvents<ChatChunk>
}

struct ChatMessage: Codable, Sendable {
    let role: String
    let content: String
}

struct ChatChunk: Decodable, Sendable {
    struct Choice: Decodable, Sendable {
        struct Delta: Decodable, Sendable { let content: String? }
        let delta: Delta
    }
    let choices: [Choice]
}

/// GET /api/v1/reports/{id}/export → a report file (application/octet-stream), for download(to:).
struct ExportReport: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "reports/{id}/export") }
    let id: Int
    typealias ReturnPayloadType = Data
}

// MARK: - Documentation for the OpenAPI document (`Demo --openapi`)

extension PurchaseCheer: Documented {
    static var documentation: Documentation {
        Documentation(
            summary: "Buy a cheer",
            description: "Records a store purchase of cheers and returns the buyer's new balance.",
            tags: ["cheers"],
            properties: [
                "identifier": .init("The product identifier", example: "cheer.large"),
                "transactionId": .init("The store's transaction number", example: 1_000_000_007),
            ])
    }
}

extension CheerHistory: Documented {
    static var documentation: Documentation {
        Documentation(summary: "List a user's cheers", tags: ["cheers"], properties: ["userId": "The user whose cheers to list"])
    }
}

extension ListBranches: Documented {
    static var documentation: Documentation {
        Documentation(summary: "List branches", tags: ["repositories"], properties: ["perPage": "Branches per page, at most 100"])
    }
}

extension UploadPhoto: Documented {
    static var documentation: Documentation {
        Documentation(summary: "Upload a photo to an album", tags: ["photos"], status: 201)
    }
}

extension ChatCompletion: Documented {
    static var documentation: Documentation {
        Documentation(summary: "Stream a chat completion", description: "Server-Sent Events, one chunk per word, then [DONE].", tags: ["chat"])
    }
}

extension ExportReport: Documented {
    static var documentation: Documentation {
        Documentation(summary: "Download a report", tags: ["reports"])
    }
}

/// The error body the demo server sends with a 4xx status.
struct DemoError: Decodable, Sendable {
    let error: String
}

/// Every endpoint the demo calls, for `Demo --openapi`.
let demoEndpoints: [any (Endpoint & Decodable).Type] = [
    PurchaseCheer.self, CheerHistory.self, ListBranches.self, UploadPhoto.self, ChatCompletion.self, ExportReport.self,
]
