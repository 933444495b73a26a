@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing

/// EndpointKit's snake_case key conversions against Foundation's own strategies, in both
/// directions: fixed keys that probe each rule, then generated ones (10,000 each way).
@Suite struct SnakeCaseTests {
    // MARK: - Foundation, as the reference

    /// Foundation's `.convertToSnakeCase` applied to `key`, as a property name.
    static func foundationSnakeCase(_ key: String) throws -> String {
        struct OneProperty: Encodable {
            let name: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encode(0, forKey: AnyKey(name))
            }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = try encoder.encode(OneProperty(name: key))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Int])
        return try #require(object.keys.first)
    }

    /// Foundation's `.convertFromSnakeCase` applied to the JSON key `key`.
    static func foundationCamelCase(_ key: String) throws -> String {
        struct Keys: Decodable {
            let keys: [String]
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = try JSONSerialization.data(withJSONObject: [key: 0])
        return try #require(try decoder.decode(Keys.self, from: json).keys.first)
    }

    /// `count` keys of up to `maximumLength` pieces drawn from `alphabet`, the same every run.
    static func keys(_ count: Int, from alphabet: [String], maximumLength: UInt64, seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int(generator.next() % maximumLength)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
        }
    }

    /// The keys whose conversion differs from Foundation's.
    static func mismatches(
        in keys: [String], converted: (String) -> String, reference: (String) throws -> String
    ) throws -> [String] {
        try keys.filter { try converted($0) != reference($0) }
    }

    static let mixedAlphabet = ["a", "b", "z", "A", "B", "Z", "_", "0", "7", "é", "É", "ß", "ǅ", "Σ", "σ",
                                "日", "-", " ", "\u{301}", "İ", "ﬀ", "Ⅻ", "ⅻ"]
    static let asciiAlphabet = ["a", "A", "b", "B", "z", "Z", "_", "0", "9", "-", ".", " ", "x", "X", "y", "Y"]
    /// Underscore-heavy, so most keys have several words: what the decoding side sees.
    static let snakeAlphabet = ["_", "_", "_", "a", "b", "z", "A", "Z", "id", "url", "ID", "1", "7", "1st", "é", "-", "."]

    // MARK: - camelCase to snake_case (encoding)

    @Test(arguments: [
        "transactionId", "userID", "myURLValue", "URL", "url", "aB", "Ab", "ABc", "_leading", "trailing_",
        "__double__under", "already_snake", "value2x", "x2Value", "HTTPServer", "oneTWOThree", "ÉtéÀVenir",
        "straßeName", "ǅemal", "a", "", "A", "ALLCAPS", "with space", "x-Dash", "日本Value",
    ])
    func `snake_case matches Foundation on known keys`(key: String) throws {
        #expect(SnakeCase.toSnakeCase(key) == (try Self.foundationSnakeCase(key)))
    }

    @Test(arguments: [
        (mixedAlphabet, UInt64(12), UInt64(0x5EED)),
        (asciiAlphabet, UInt64(14), UInt64(0xA5C11)),
    ])
    func `snake_case matches Foundation on 5,000 generated keys`(alphabet: [String], length: UInt64, seed: UInt64) throws {
        let mismatches = try Self.mismatches(
            in: Self.keys(5_000, from: alphabet, maximumLength: length, seed: seed),
            converted: SnakeCase.toSnakeCase, reference: Self.foundationSnakeCase)
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(10))")
    }

    // MARK: - snake_case to camelCase (decoding)

    @Test(arguments: [
        "transaction_id", "protection_url", "a_1st", "user_ID", "USER_NAME", "__id__", "a__b", "x_509_cert",
        "_", "", "a_b_", "_a_b", "a-b_c", "a_b-c", "a_b.c", "created_at", "id", "userName", "URL", "é_b",
        "a_é", "ǅ_x", "a_ß", "a_1_b", "a_b2c", "a_2b", "a_ID2", "a_b c", "a_b'c", "日本_value",
    ])
    func `camelCase matches Foundation on known keys`(key: String) throws {
        #expect(SnakeCase.fromSnakeCase(key) == (try Self.foundationCamelCase(key)))
    }

    @Test(arguments: [
        (mixedAlphabet, UInt64(12), UInt64(0xDEC0DE)),
        (snakeAlphabet, UInt64(10), UInt64(0x5A4E)),
    ])
    func `camelCase matches Foundation on 5,000 generated keys`(alphabet: [String], length: UInt64, seed: UInt64) throws {
        let mismatches = try Self.mismatches(
            in: Self.keys(5_000, from: alphabet, maximumLength: length, seed: seed),
            converted: SnakeCase.fromSnakeCase, reference: Self.foundationCamelCase)
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(10))")
    }

    // MARK: - The defaults use them

    @Test func `the default coders read and write snake_case through EndpointKit's strategies`() throws {
        struct Record: Codable, Equatable {
            let transactionId: Int
            let userName: String
            let protectionUrl: String
        }
        let json = try APIServer.makeEncoder().encode(Record(transactionId: 7, userName: "u", protectionUrl: "p"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["transaction_id", "user_name", "protection_url"])
        let decoded = try APIServer.makeDecoder().decode(
            Record.self, from: Data(#"{"transaction_id":7,"user_name":"u","protection_url":"p"}"#.utf8))
        #expect(decoded == Record(transactionId: 7, userName: "u", protectionUrl: "p"))
        guard case .custom = APIServer.makeDecoder().keyDecodingStrategy else {
            Issue.record("the default decoder's key strategy should read as .custom")
            return
        }
    }
}
