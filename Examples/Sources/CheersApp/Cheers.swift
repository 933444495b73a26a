// The endpoint and the preview server of the SwiftUI example. This file has no SwiftUI in it, so
// it compiles on Linux too, in a target built as a new Xcode 26 app target is (main actor by
// default): CI proves there what the README says about such targets.
import EndpointKit
import EndpointKitTesting
import Foundation

/// `GET /api/v1/cheers`: the cheers on sale.
nonisolated struct ListCheers: Endpoint {
    var endpoint: Restful { Restful(.get, "cheers") }
    typealias ReturnPayloadType = [Cheer]
}

/// One cheer on sale.
nonisolated struct Cheer: Decodable, Sendable, Identifiable {
    let id: Int
    let name: String
    let price: Decimal
}

nonisolated extension APIServer {
    /// The live API.
    static let cheers = APIServer(origin: URL(string: "https://reiterate.app")!)

    /// Stubbed answers for previews: no network, a short delay so the loading state shows.
    static var preview: APIServer {
        let stubs = StubTransport()
        stubs.on(ListCheers.self, .value([
            Cheer(id: 1, name: "Small cheer", price: 0.99),
            Cheer(id: 2, name: "Large cheer", price: 4.99),
        ]).delayed(by: 0.5))
        return APIServer(origin: URL(string: "https://preview.invalid")!, transport: stubs)
    }
}
