@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `APIServer.withDefault` from main-actor code, as SwiftUI previews and `@MainActor` tests call it.
@MainActor @Suite struct MainActorDefaultServerTests {
    struct Balance: Endpoint {
        let endpoint = Restful(.get, "balance")
        struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
    }

    /// Main-actor state that is not `Sendable`: the operation may touch it because it runs on the
    /// main actor too.
    final class Screen {
        var shown: [Int] = []
    }

    @Test func `withDefault runs its operation in the caller's isolation`() async throws {
        let screen = Screen()
        let server = APIServer.stub(RecordingTransport(body: #"{"balance":7}"#))
        let returned = try await APIServer.withDefault(server) {
            MainActor.assertIsolated()
            let balance = try await Balance().response.balance
            screen.shown.append(balance)
            return screen  // not Sendable: it never leaves the main actor
        }
        #expect(returned.shown == [7])
    }
}
