// This target is compiled as Xcode 26 compiles a new app target: every declaration is
// `@MainActor` unless it says otherwise (`defaultIsolation(MainActor.self)` in Package.swift, with
// the "approachable concurrency" upcoming features). It checks what README and DocC tell app
// developers: endpoints and payloads declared `nonisolated` work there.
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

nonisolated struct BuyCheer: Endpoint {
    let endpoint = Restful(.post, "purchase_cheer", version: 2)
    let identifier: String
    let transactionId: UInt64
    typealias ReturnPayloadType = CheerBalance
}

nonisolated struct CheerBalance: Decodable, Sendable {
    let balance: Int
}

/// A payload nested in a `nonisolated` endpoint is nonisolated too.
nonisolated struct Balance: Endpoint {
    let endpoint = Restful(.get, "balance")
    struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
}

/// Answers every request with `{"balance":42}` and keeps the last request's body.
nonisolated final class CannedTransport: HTTPTransport {
    // `lock` guards `lastBody` (taken by hand: `NSLock.withLock` needs iOS 16 / macOS 13).
    private let lock = NSLock()
    private nonisolated(unsafe) var lastBody: Data?

    var body: String? {
        lock.lock()
        defer { lock.unlock() }
        return lastBody.map { String(decoding: $0, as: UTF8.self) }
    }

    private func record(_ body: Data?) {
        lock.lock()
        defer { lock.unlock() }
        lastBody = body
    }

    func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        record(try await body?.collect(upTo: 1 << 20))
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        return (.data(Data(#"{"balance":42}"#.utf8)), response)
    }
}

/// Main-actor state, as a view model in such an app would be.
final class Wallet {
    var balance = 0
}

@Suite struct MainActorByDefaultTests {
    @Test func `nonisolated endpoints and payloads work in a main-actor-by-default target`() async throws {
        MainActor.assertIsolated()
        let transport = CannedTransport()
        let encoder = APIServer.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        let server = APIServer(origin: URL(string: "https://reiterate.app")!, transport: transport, encoder: encoder)
        let wallet = Wallet()
        wallet.balance = try await APIServer.withDefault(server) {
            try await BuyCheer(identifier: "cheer.large", transactionId: 7).response.balance
        }
        #expect(wallet.balance == 42)
        #expect(transport.body == #"{"identifier":"cheer.large","transaction_id":7}"#)
        wallet.balance += try await Balance().call(on: server).balance
        #expect(wallet.balance == 84)
    }
}

// MARK: - Stubs in a main-actor app target (what a SwiftUI preview does)

/// A view model as an app writes it: main-actor isolated by default, loading through `response`.
final class BalanceModel {
    var balance: Int?
    func load() async throws {
        balance = try await Balance().response.balance
    }
}

extension APIServer {
    /// The preview server of the Testing article's "Previews": stubs with a typed value and a delay.
    static var walletPreview: APIServer {
        let stubs = StubTransport()
        stubs.on(Balance.self, .value(.init(balance: 1_200)).delayed(by: 0.01))
        stubs.on(BuyCheer.self) { call in CheerBalance(balance: Int(call.transactionId)) }
        return APIServer(origin: URL(string: "https://preview.invalid")!, transport: stubs)
    }
}

@Suite struct MainActorStubTests {
    @Test func `a main-actor view model loads from a stubbed server, as in a preview`() async throws {
        let model = BalanceModel()
        try await APIServer.withDefault(.walletPreview) {
            try await model.load()
        }
        #expect(model.balance == 1_200)
    }

    @Test func `a typed stub with a closure works from main-actor code`() async throws {
        let balance = try await BuyCheer(identifier: "a", transactionId: 7).call(on: .walletPreview).balance
        #expect(balance == 7)
    }
}

// MARK: - Progress in a main-actor app target

nonisolated struct ExportArchive: Endpoint {
    let endpoint = Restful(.get, "archive")
    typealias ReturnPayloadType = ByteStream
}

nonisolated struct SendNote: Endpoint {
    let endpoint = Restful(.post, "notes")
    let text: String
    typealias ReturnPayloadType = EmptyPayload
}

/// A view model's progress, main-actor isolated as app code is by default.
final class TransferModel {
    var completed: [Int64] = []
    var fraction = 0.0
}

@Suite struct MainActorProgressTests {
    /// In an Xcode 26 app target a `@Sendable` progress closure could not touch this model; the
    /// closure now runs on the caller's actor, in order, its final report before the call returns.
    @Test func `download progress updates main-actor state from a plain closure`() async throws {
        let stubs = StubTransport()
        let chunks = (0..<4).map { _ in Data(repeating: 7, count: 1_000) }
        stubs.on(ExportArchive.self, .chunks(chunks, interval: 0.06, headers: ["Content-Length": "4000"]))
        let server = APIServer(origin: URL(string: "https://api.test")!, transport: stubs)
        let model = TransferModel()
        let file = try await ExportArchive().download(on: server) { progress in
            MainActor.assertIsolated()
            model.completed.append(progress.completed)
            model.fraction = progress.fractionCompleted ?? 0
        }
        defer { try? FileManager.default.removeItem(at: file.payload) }
        #expect(model.completed.last == 4_000)
        #expect(model.completed == model.completed.sorted())  // in order
        #expect(model.fraction == 1)
        #expect(try Data(contentsOf: file.payload).count == 4_000)
    }

    @Test func `upload progress updates main-actor state from a plain closure`() async throws {
        let stubs = StubTransport()
        stubs.on(SendNote.self, .status(204))
        let server = APIServer(origin: URL(string: "https://api.test")!, transport: stubs)
        let model = TransferModel()
        try await SendNote(text: "hello").call(on: server) { progress in
            MainActor.assertIsolated()
            model.fraction = progress.fractionCompleted ?? 0
        }
        #expect(model.fraction == 1)
    }
}

@Suite struct MainActorLogTests {
    @Test func `a main-actor model keeps a logger's lines from its stream`() async throws {
        let (logger, lines) = RequestLogger.makeStream()
        var server = APIServer(origin: URL(string: "https://api.test")!, transport: CannedTransport())
        server.middlewares = [logger]
        _ = try await Balance().call(on: server)
        var console: [String] = []
        for await line in lines {
            console.append(line)
            if console.count == 2 { break }
        }
        #expect(console[0] == "--> GET /api/v1/balance")
        #expect(console[1].hasPrefix("<-- 200 OK GET /api/v1/balance ("))
    }
}
