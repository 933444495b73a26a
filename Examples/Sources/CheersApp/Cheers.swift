// The endpoint and the preview server of the SwiftUI example. This file has no SwiftUI in it, so
// it compiles on Linux too, in a target built as a new Xcode 26 app target is (main actor by
// default): CI proves there what the README says about such targets.
import EndpointKit
import EndpointKitTesting
import Foundation

/// `GET /api/v1/cheers`: the cheers on sale.
nonisolated struct ListCheers: Endpoint {
    let endpoint = Restful(.get, "cheers")
    typealias ReturnPayloadType = [Cheer]
}

/// One cheer on sale.
nonisolated struct Cheer: Decodable, Sendable, Identifiable {
    let id: Int
    let name: String
    let price: Decimal
}

nonisolated extension Server {
    /// The live API.
    static let cheers = Server(origin: URL(string: "https://reiterate.app")!)

    /// Stubbed answers for previews: no network, a short delay so the loading state shows.
    static var cheersPreview: Server {
        let stubs = StubTransport()
        stubs.on(ListCheers.self, .value([
            Cheer(id: 1, name: "Small cheer", price: 0.99),
            Cheer(id: 2, name: "Large cheer", price: 4.99),
        ]).delayed(by: 0.5))
        return Server(origin: URL(string: "https://preview.invalid")!, transport: stubs)
    }
}
