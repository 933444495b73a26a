import EndpointKit
import EndpointKitContract
import Foundation
import Testing

/// Reads integers until it meets -1: real input ends, the probe's placeholders never do.
struct SentinelList: Decodable {
    var values: [Int] = []
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while true {
            let value = try container.decode(Int.self)
            if value == -1 { break }
            values.append(value)
        }
    }
}

/// A chain read through `superDecoder(forKey:)` while `contains` says there is more.
struct Chain: Decodable {
    let name: String
    var depth = 0
    enum CodingKeys: String, CodingKey { case name, next }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if container.contains(.next) {
            depth = try Chain(from: container.superDecoder(forKey: .next)).depth + 1
        }
    }
}

/// The schema probe has a budget: a type it cannot finish probing is refused with
/// `.schemaUnavailable` naming it, instead of running until memory runs out. On Linux each case
/// runs in a child process (this test binary again, limited to 2 GB of address space and 60 s), so
/// a regression ends that child, not the test run.
@Suite struct ProbeBudgetTests {
    static let childVariable = "ENDPOINTKIT_PROBE_CHILD"

    /// The outcome of describing the type named `name`, as one line.
    static func outcome(of name: String) -> String {
        do {
            switch name {
            case "SentinelList": _ = try JSONSchema(for: SentinelList.self)
            case "Chain": _ = try JSONSchema(for: Chain.self)
            default: return "unknown case \(name)"
            }
            return "described"
        } catch let error as EndpointError {
            return "\(error.kind) \(error.description)"
        } catch {
            return "other \(error)"
        }
    }

    /// Where a child process runs: prints the outcome of the case it was given, does nothing otherwise.
    @Test func `probe budget child`() {
        guard let name = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        print("PROBE-OUTCOME: \(Self.outcome(of: name))")
    }

    @Test(arguments: [
        ("SentinelList", "more than 20000 values"),
        ("Chain", "more than 64 levels deep"),
    ])
    func `a type the probe cannot finish is refused with schemaUnavailable, not a crash`(name: String, reason: String) async throws {
        let started = Date()
        let outcome = try await onOwnThread { try Self.run(name) }
        #expect(outcome.hasPrefix("schemaUnavailable "), "\(outcome)")
        #expect(outcome.contains(name), "\(outcome)")
        #expect(outcome.contains(reason), "\(outcome)")
        #expect(outcome.contains("CustomJSONSchema"), "\(outcome)")
        // "Well under a second" is promised; a hang would take the child's whole 60 s.
        #expect(Date().timeIntervalSince(started) < 45)
    }

    /// Runs the case in a child process where one can be started, in this process otherwise.
    static func run(_ name: String) throws -> String {
        #if os(Linux)
        // This test binary, run again for the one child test, under a memory limit.
        let binary = ProcessInfo.processInfo.arguments[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"ulimit -v 2000000; exec timeout -s KILL 60 "$0" --testing-library swift-testing --filter "probe budget child""#, binary,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = name
        process.environment = environment
        // A file, not a pipe read to its end: a child another test starts meanwhile could hold a
        // copy of the pipe for as long as it lives (see ChildOutput in the integration tests).
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            return "the child ended with status \(process.terminationStatus): \(text.suffix(2000))"
        }
        guard let line = text.split(separator: "\n").first(where: { $0.contains("PROBE-OUTCOME: ") }) else {
            return "the child printed no outcome: \(text.suffix(2000))"
        }
        return String(line[line.range(of: "PROBE-OUTCOME: ")!.upperBound...])
        #else
        return outcome(of: name)
        #endif
    }

    @Test func `real payloads stay far within the budget`() throws {
        struct Deep: Decodable { let a: [[[[String]]]]; let b: [String: [Int]]; let c: Date?; let d: URL }
        let schema = try JSONSchema(for: Deep.self)
        #expect(try schema.json().count > 100)
        // And the same decoding works on real input.
        let chain = try JSONDecoder().decode(Chain.self, from: Data(#"{"name":"a","next":{"name":"b","next":{"name":"c"}}}"#.utf8))
        #expect(chain.depth == 2)
        let list = try JSONDecoder().decode(SentinelList.self, from: Data("[3,4,-1]".utf8))
        #expect(list.values == [3, 4])
    }
}

/// Runs blocking `work` (a child process, a pipe read to its end) on a thread of its own.
///
/// Swift concurrency has as many threads as cores, two on the machines here. A test that blocked
/// one of them while a child process ran for a minute would hold back every other test's timers,
/// and timeouts measured elsewhere would stretch by as long.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
