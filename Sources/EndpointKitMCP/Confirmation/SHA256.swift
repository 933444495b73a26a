/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), written here so that the MCP server signs its
/// confirmation state without a dependency; checked against FIPS 180-4's and RFC 4231's vectors.
/// Not for bulk data: it hashes a few hundred bytes per confirmed call.
struct SHA256 {
    private var state: [UInt32] = [
        0x6a09_e667 as UInt32, 0xbb67_ae85 as UInt32, 0x3c6e_f372 as UInt32, 0xa54f_f53a as UInt32,
        0x510e_527f as UInt32, 0x9b05_688c as UInt32, 0x1f83_d9ab as UInt32, 0x5be0_cd19 as UInt32,
    ]
    private var pending: [UInt8] = []
    // 32-bit: a message's length in bits, counted in UInt64 on every platform.
    private var length: UInt64 = 0

    private static let constants: [UInt32] = [
        0x428a_2f98 as UInt32, 0x7137_4491 as UInt32, 0xb5c0_fbcf as UInt32, 0xe9b5_dba5 as UInt32,
        0x3956_c25b as UInt32, 0x59f1_11f1 as UInt32, 0x923f_82a4 as UInt32, 0xab1c_5ed5 as UInt32,
        0xd807_aa98 as UInt32, 0x1283_5b01 as UInt32, 0x2431_85be as UInt32, 0x550c_7dc3 as UInt32,
        0x72be_5d74 as UInt32, 0x80de_b1fe as UInt32, 0x9bdc_06a7 as UInt32, 0xc19b_f174 as UInt32,
        0xe49b_69c1 as UInt32, 0xefbe_4786 as UInt32, 0x0fc1_9dc6 as UInt32, 0x240c_a1cc as UInt32,
        0x2de9_2c6f as UInt32, 0x4a74_84aa as UInt32, 0x5cb0_a9dc as UInt32, 0x76f9_88da as UInt32,
        0x983e_5152 as UInt32, 0xa831_c66d as UInt32, 0xb003_27c8 as UInt32, 0xbf59_7fc7 as UInt32,
        0xc6e0_0bf3 as UInt32, 0xd5a7_9147 as UInt32, 0x06ca_6351 as UInt32, 0x1429_2967 as UInt32,
        0x27b7_0a85 as UInt32, 0x2e1b_2138 as UInt32, 0x4d2c_6dfc as UInt32, 0x5338_0d13 as UInt32,
        0x650a_7354 as UInt32, 0x766a_0abb as UInt32, 0x81c2_c92e as UInt32, 0x9272_2c85 as UInt32,
        0xa2bf_e8a1 as UInt32, 0xa81a_664b as UInt32, 0xc24b_8b70 as UInt32, 0xc76c_51a3 as UInt32,
        0xd192_e819 as UInt32, 0xd699_0624 as UInt32, 0xf40e_3585 as UInt32, 0x106a_a070 as UInt32,
        0x19a4_c116 as UInt32, 0x1e37_6c08 as UInt32, 0x2748_774c as UInt32, 0x34b0_bcb5 as UInt32,
        0x391c_0cb3 as UInt32, 0x4ed8_aa4a as UInt32, 0x5b9c_ca4f as UInt32, 0x682e_6ff3 as UInt32,
        0x748f_82ee as UInt32, 0x78a5_636f as UInt32, 0x84c8_7814 as UInt32, 0x8cc7_0208 as UInt32,
        0x90be_fffa as UInt32, 0xa450_6ceb as UInt32, 0xbef9_a3f7 as UInt32, 0xc671_78f2 as UInt32,
    ]

    /// The digest of `bytes`, 32 bytes.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// HMAC-SHA256 of `message` under `key` (RFC 2104: a key longer than the block is hashed first).
    static func authenticationCode(for message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            length &+= 8
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    mutating func finalize() -> [UInt8] {
        let bits = length
        pending.append(0x80)
        while pending.count % 64 != 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { pending.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        for start in stride(from: 0, to: pending.count, by: 64) { compress(Array(pending[start..<start + 64])) }
        pending.removeAll()
        return state.flatMap { word in [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)] }
    }

    private mutating func compress(_ block: [UInt8]) {
        var words = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            words[index] = UInt32(block[index * 4]) << 24 | UInt32(block[index * 4 + 1]) << 16
                | UInt32(block[index * 4 + 2]) << 8 | UInt32(block[index * 4 + 3])
        }
        for index in 16..<64 {
            let s0 = rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ (words[index - 15] >> 3)
            let s1 = rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ (words[index - 2] >> 10)
            words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.constants[index] &+ words[index]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] = state[index] &+ value }
    }

    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
