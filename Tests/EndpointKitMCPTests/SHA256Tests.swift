@testable import EndpointKitMCP
import Foundation
import Testing

/// The hash and the HMAC that sign MCP confirmations, against the standards' own vectors.
@Suite struct SHA256Tests {
    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func `SHA-256 gives FIPS 180-4's digests`(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func `a million a's cross many blocks`() {
        #expect(Self.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [([UInt8], [UInt8], String)])
    func `HMAC-SHA256 gives RFC 4231's codes`(key: [UInt8], message: [UInt8], code: String) {
        #expect(Self.hex(SHA256.authenticationCode(for: message, key: key)) == code)
    }

    @Test func `a sealed state opens with its key only, and any change to it is refused`() throws {
        let key = Data(repeating: 1, count: 32)
        let state = ConfirmationState(binding: "principal:ann", tool: "purchase", argumentsDigest: "ab", expiry: 1_800_000_000, nonce: "n")
        let sealed = state.sealed(key: key)
        #expect(try ConfirmationState.opened(sealed, key: key) == state)
        #expect(throws: ConfirmationState.Refusal.forged) { try ConfirmationState.opened(sealed, key: Data(repeating: 2, count: 32)) }
        let parts = sealed.split(separator: ".")
        let other = ConfirmationState(binding: "principal:bob", tool: "purchase", argumentsDigest: "ab", expiry: 1_800_000_000, nonce: "n").sealed(key: key).split(separator: ".")
        #expect(throws: ConfirmationState.Refusal.forged) { try ConfirmationState.opened("v1.\(other[1]).\(parts[2])", key: key) }
        #expect(ConfirmationState.digest(of: ["a": 1, "b": ["c": 2, "d": 3]]) == ConfirmationState.digest(of: ["b": ["d": 3, "c": 2], "a": 1]))
        #expect(ConfirmationState.digest(of: ["a": 1]) != ConfirmationState.digest(of: ["a": 2]))
    }
}
