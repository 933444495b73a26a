import EndpointKitGenerator
import Foundation
import Testing

@Suite struct SwiftNamesTests {
    @Test(arguments: [
        ("read_item_items__item_id__get", "get", "/items/{item_id}", "ReadItem"),
        ("list_items_items__get", "get", "/items/", "ListItems"),
        ("create_pet_pets_post", "post", "/pets", "CreatePet"),
        ("listPets", "get", "/pets", "ListPets"),
        ("get-user.v2", "get", "/users/{id}", "GetUserV2"),
        ("2fa_verify", "post", "/2fa", "Operation2faVerify"),
        ("getHTTPStatus", "get", "/status", "GetHTTPStatus"),
    ])
    func `operation ids become UpperCamel struct names, FastAPI's suffix dropped`(id: String, method: String, path: String, name: String) {
        #expect(SwiftNames.typeName(forOperationID: id, method: method, path: path) == name)
    }

    @Test(arguments: [
        ("next_cursor", "nextCursor", true),
        ("id", "id", true),
        ("created_at", "createdAt", true),
        ("userID", "userID", false),      // sent back as user_id
        ("user_ID", "userId", false),      // read as userId, sent back as user_id
        ("_links", "_links", true),
        ("2fa", "_2fa", false),     // `_2fa` is sent as `_2fa`
        ("html_url", "htmlUrl", true),
    ])
    func `keys become camelCase properties, and say whether the default coders round-trip them`(key: String, name: String, roundTrips: Bool) {
        let result = SwiftNames.propertyName(forKey: key)
        #expect(result.name == name)
        #expect(result.roundTrips == roundTrips)
    }

    @Test func `the names EndpointKit's coders use agree with Foundation's own, key by key`() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        for key in ["next_cursor", "created_at", "a_b_c", "html_url", "x", "user_id", "ab_CD_ef", "__private", "trail_"] {
            /// The key as Foundation's decoder hands it to a type's keyed container.
            struct One: Decodable {
                let key: String
                init(from decoder: any Decoder) throws {
                    struct AnyKey: CodingKey { let stringValue: String; var intValue: Int? { nil }; init?(stringValue: String) { self.stringValue = stringValue }; init?(intValue: Int) { nil } }
                    key = try decoder.container(keyedBy: AnyKey.self).allKeys.first?.stringValue ?? ""
                }
            }
            let foundation = try decoder.decode(One.self, from: Data(#"{"\#(key)":1}"#.utf8)).key
            #expect(SwiftNames.propertyName(forKey: key).name == (foundation.first?.isNumber == true ? "_" + foundation : foundation), "\(key)")
        }
    }

    @Test func `colliding names get 2, 3 in the order given`() {
        #expect(SwiftNames.unique(["ListPets", "GetPet", "ListPets", "ListPets2", "ListPets"]) == ["ListPets", "GetPet", "ListPets3", "ListPets2", "ListPets4"])
    }
}
