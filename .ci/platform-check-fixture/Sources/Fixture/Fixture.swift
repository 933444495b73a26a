import Foundation

// MARK: - Availability

func unguarded(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // iOS 18, macOS 15: found
}

func guardedByIf(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return String(validating: bytes, as: UTF8.self)  // after the guarded block: found
}

func guardedEarly(_ bytes: [UInt8]) -> String? {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
    return String(validating: bytes, as: UTF8.self)
}

func guardedTooLow(_ bytes: [UInt8]) -> String? {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
        return String(validating: bytes, as: UTF8.self)  // a guard that is not enough: found
    }
    return nil
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Pause {
    func wait() async throws {
        try await Task.sleep(for: .seconds(1))
    }
}

func oneSecond() -> Duration { .seconds(1) }  // Duration is macOS 13, iOS 16: found

#if canImport(FoundationNetworking)
// Compiled on Linux only: no Apple platform sees it.
func linuxOnly(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
#endif

let quoted = "String(validating: bytes, as: UTF8.self) and 100 * 365 * 24 * 3600 * 1000 in a string"

// MARK: - 32-bit Int

let century = UInt64(100 * 365 * 24 * 3600)  // computed in Int: found
let pinnedCentury = UInt64(100) * 365 * 24 * 3600
let centuryInSeconds: TimeInterval = 100 * 365 * 24 * 3600
let wide = (100 * 365 * 24 * 3600) as Double
let small = 24 * 3600 * 1000

func timer(_ nanoseconds: UInt64) -> DispatchTime {
    .now() + .nanoseconds(Int(clamping: nanoseconds))  // 2.1 s at most on a watch: found
}

func capped(_ count: Int, _ pending: UInt64) -> Int {
    // 32-bit: a count past Int.max clamps to Int.max, and `count` is smaller anyway.
    min(count, Int(clamping: pending))
}
