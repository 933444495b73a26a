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

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        record(request.httpBody)
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        return (Data(#"{"balance":42}"#.utf8), response)
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
        let encoder = Server.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        let server = Server(origin: URL(string: "https://reiterate.app")!, transport: transport, encoder: encoder)
        let wallet = Wallet()
        wallet.balance = try await Server.withDefault(server) {
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

extension Server {
    /// The preview server of README's "Previews": stubs with a typed value and a delay.
    static var walletPreview: Server {
        let stubs = StubTransport()
        stubs.on(Balance.self, .value(.init(balance: 1_200)).delayed(by: 0.01))
        stubs.on(BuyCheer.self) { call in CheerBalance(balance: Int(call.transactionId)) }
        return Server(origin: URL(string: "https://preview.invalid")!, transport: stubs)
    }
}

@Suite struct MainActorStubTests {
    @Test func `a main-actor view model loads from a stubbed server, as in a preview`() async throws {
        let model = BalanceModel()
        try await Server.withDefault(.walletPreview) {
            try await model.load()
        }
        #expect(model.balance == 1_200)
    }

    @Test func `a typed stub with a closure works from main-actor code`() async throws {
        let balance = try await BuyCheer(identifier: "a", transactionId: 7).call(on: .walletPreview).balance
        #expect(balance == 7)
    }
}
