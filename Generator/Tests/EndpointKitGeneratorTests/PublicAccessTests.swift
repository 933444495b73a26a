import EndpointKit
import EndpointKitContract
import Foundation
import PetstorePublic  // as an app imports a library module: no @testable
import Testing

/// `--access public` output used from another module: types, initializers, the server factory,
/// pagination and the documentation are all reachable. This file compiling is most of the proof.
@Suite struct PublicAccessTests {
    @Test func `an app module builds requests from the generated library`() throws {
        let server = APIServer.petstore(token: "secret")
        var list = ListPets(limit: 20, tags: ["small"], status: .available)
        list.cursor = "next"
        let create = CreatePet(name: "Kit", kind: .cat(Cat(indoor: true)))
        #expect(list.endpoint.method == .get)
        #expect(create.name == "Kit")
        #expect(ShowPetById(petId: 7).petId == 7)
        #expect(server.origin.absoluteString == "https://eu.petstore.example/v2")
        #expect(PetstoreAPI.endpoints.count > 3)
        #expect(ListPets.documentation.summary == "List pets")
        let page = ListPets.ReturnPayloadType(pets: [], nextCursor: nil)
        #expect(ListPets.items(in: page).isEmpty)
    }
}
