// The streaming targets of issue 14, measured against `streaming_server.py` (run by run.sh):
//
//   StreamingBench ORIGIN [--smoke]
//
// prints one tab-separated line per figure: name, value, unit, target. Memory is the process's
// resident set (Linux's /proc/self/status), sampled while the stream runs; its growth is the
// largest sample minus the resident set just before the call, after a warm-up call.
import Contenders
import EndpointKit
import EndpointKitAsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2, let origin = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: StreamingBench ORIGIN [--smoke]\n".utf8))
    exit(2)
}
let smoke = arguments.contains("--smoke")
let server = APIServer(origin: origin, pathPrefix: "")
/// The same server over AsyncHTTPClient.
let nioServer = APIServer(origin: origin, pathPrefix: "", transport: AsyncHTTPClientTransport.shared)

/// The resident set size in bytes (0 where /proc is missing: the figures are for Linux).
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Int(line.split(whereSeparator: \.isWhitespace)[1]) else { return 0 }
    return kilobytes * 1024
}

/// The largest resident set seen, from any thread.
final class PeakMemory: @unchecked Sendable {
    // `lock` guards `peak`.
    private let lock = NSLock()
    private var peak = 0
    func sample() {
        let now = residentBytes()
        lock.lock()
        peak = max(peak, now)
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}

func report(_ name: String, _ value: Double, _ unit: String, target: String) {
    // A target "<= N unit" or ">= N unit" gets its verdict in this run; "-" is a figure only.
    var verdict = ""
    let bound = target.dropFirst(3).split(separator: " ").first?.trimmingCharacters(in: CharacterSet(charactersIn: "x")) ?? ""
    if target.hasPrefix("<= "), let limit = Double(bound) {
        verdict = value <= limit ? "met" : "MISSED"
    } else if target.hasPrefix(">= "), let limit = Double(bound) {
        verdict = value >= limit ? "met" : "MISSED"
    }
    FileHandle.standardOutput.write(Data("\(name)\t\(String(format: "%.2f", value))\t\(unit)\t\(target)\t\(verdict)\n".utf8))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func now() -> Double { Date().timeIntervalSince1970 }

// MARK: - Endpoints

struct Timed: Endpoint {
    let endpoint = Restful(.get, "sse/timed")
    let count: Int
    let every: Double
    struct Tick: Decodable, Sendable { let n: Int; let sent: Double }
    typealias ReturnPayloadType = ServerSentEvents<Tick>
}

struct Fast: Endpoint {
    let endpoint = Restful(.get, "sse/fast")
    let count: Int
    struct Event: Decodable, Sendable { let n: Int; let name: String }
    typealias ReturnPayloadType = ServerSentEvents<Event>
}

struct OneWrite: Endpoint {
    let endpoint = Restful(.get, "sse/one-write")
    let count: Int
    struct Event: Decodable, Sendable { let n: Int; let name: String }
    typealias ReturnPayloadType = ServerSentEvents<Event>
}

struct EndlessBytes: Endpoint {
    var endpoint: Restful { Restful(.get, "bytes/endless/{key}") }
    let key: String
    typealias ReturnPayloadType = ByteStream
}

struct Lines: Endpoint {
    let endpoint = Restful(.get, "jsonl")
    let mb: Int
    struct Row: Decodable, Sendable { let n: Int; let name: String; let values: [Int] }
    typealias ReturnPayloadType = JSONLines<Row>
}

struct Download: Endpoint {
    let endpoint = Restful(.get, "download")
    let mb: Int
    typealias ReturnPayloadType = Data
}

struct Endless: Endpoint {
    var endpoint: Restful { Restful(.get, "sse/endless/{key}") }
    let key: String
    struct Tick: Decodable, Sendable { let n: Int }
    typealias ReturnPayloadType = ServerSentEvents<Tick>
}

struct Closed: Endpoint {
    var endpoint: Restful { Restful(.get, "closed/{key}") }
    let key: String
    struct ReturnPayloadType: Decodable, Sendable { let closed: Bool; let at: Double; let sent: Int }
}

// MARK: - Figures

/// Flush to caller: the server stamps each event just before it writes and flushes it.
func latency() async throws {
    var delays: [Double] = []
    for try await event in try await Timed(count: smoke ? 10 : 100, every: 0.02).call(on: server) {
        delays.append((now() - event.data.sent) * 1000)
    }
    report("sse_flush_to_caller_median", median(delays), "ms", target: "<= 50 ms")
    report("sse_flush_to_caller_max", delays.max() ?? .nan, "ms", target: "-")
}

func events() async throws {
    for try await _ in try await Fast(count: 1000).call(on: server) {}  // warm-up
    let count = smoke ? 5_000 : 100_000
    let peak = PeakMemory()
    let before = residentBytes()
    var received = 0
    for try await event in try await Fast(count: count).call(on: server) {
        received += 1
        if event.data.n % 1000 == 0 { peak.sample() }
    }
    peak.sample()
    precondition(received == count, "received \(received) of \(count) events")
    report("sse_\(count)_events_rss_growth", Double(peak.value - before) / 1_048_576, "MB", target: "<= 16 MB")
}

/// One server write per event, as LLM token streams arrive: the buffer holds many tiny chunks. Ten
/// streams in a row, so that growth from allocator fragmentation shows.
func oneWriteEvents() async throws {
    for try await _ in try await OneWrite(count: 1000).call(on: server) {}  // warm-up
    let count = smoke ? 2_000 : 100_000
    let peak = PeakMemory()
    let before = residentBytes()
    var firstPeak = 0
    for round in 0..<(smoke ? 2 : 10) {
        var received = 0
        for try await event in try await OneWrite(count: count).call(on: server) {
            received += 1
            if event.data.n % 1000 == 0 {
                peak.sample()
                // A reader that does work between events: the tiny chunks pile up in the buffer.
                try await Task.sleep(nanoseconds: 40_000_000)
            }
        }
        peak.sample()
        precondition(received == count, "received \(received) of \(count) events")
        if round == 0 { firstPeak = peak.value }
    }
    report("sse_\(count)_one_write_events_rss_growth", Double(firstPeak - before) / 1_048_576, "MB", target: "<= 16 MB")
    report("sse_\(count)_one_write_events_x10_rss_growth", Double(peak.value - before) / 1_048_576, "MB", target: "<= 16 MB")
}

/// A reader far behind a fast server (its overflow file holds hundreds of MiB) stops: how long the
/// `break` takes, and when the server sees the connection closed.
func cancelFarBehind() async throws {
    var blocked: [Double] = []
    var toClose: [Double] = []
    let behind = arguments.firstIndex(of: "--behind").flatMap { Int(arguments[$0 + 1]) }.map { $0 << 20 } ?? (smoke ? 64 << 20 : 1 << 30)
    for _ in 0..<(smoke ? 1 : 3) {
        let key = UUID().uuidString
        var stopped = 0.0
        var breakTook = 0.0
        for try await _ in try await EndlessBytes(key: key).call(on: server) {
            // Read one chunk, then fall behind until the server has sent `behind` bytes.
            while try await Closed(key: key).call(on: server).sent < behind {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            stopped = now()
            break
        }
        breakTook = (now() - stopped) * 1000
        var closed = try await Closed(key: key).call(on: server)
        let deadline = now() + 20
        while !closed.closed, now() < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
            closed = try await Closed(key: key).call(on: server)
        }
        blocked.append(breakTook)
        toClose.append(closed.closed ? (closed.at - stopped) * 1000 : .infinity)
    }
    report("cancel_\(behind >> 20)MB_behind_break_blocked_max", blocked.max() ?? .nan, "ms", target: "<= 50 ms")
    report("cancel_\(behind >> 20)MB_behind_to_server_close_max", toClose.max() ?? .nan, "ms", target: "<= 100 ms")
}

func jsonLines() async throws {
    for try await _ in try await Lines(mb: 1).call(on: server) {}  // warm-up
    let megabytes = smoke ? 16 : 1024
    let peak = PeakMemory()
    let before = residentBytes()
    let start = now()
    var rows = 0
    for try await _ in try await Lines(mb: megabytes).call(on: server) {
        rows += 1
        if rows % 10_000 == 0 { peak.sample() }
    }
    peak.sample()
    report("jsonl_\(megabytes)MB_rss_growth", Double(peak.value - before) / 1_048_576, "MB", target: "<= 16 MB")
    report("jsonl_\(megabytes)MB_rows_per_second", Double(rows) / (now() - start), "rows/s", target: "-")
}

/// Runs `curl -s -o FILE URL` and returns its wall time.
func curl(_ url: URL, to file: URL) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl", "-s", "-o", file.path, url.absoluteString]
    let start = now()
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw URLError(.cannotLoadFromNetwork) }
    return now() - start
}

func download() async throws {
    let megabytes = smoke ? 16 : 1024
    var components = URLComponents(url: origin.appendingPathComponent("download"), resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "mb", value: String(megabytes))]
    try await measureDownload(
        "download", Download(mb: megabytes), warmUp: Download(mb: 1), on: server, url: components.url!, megabytes: megabytes)
}

/// A file nginx serves (`BENCH_NGINX_ORIGIN`, started by run.sh).
struct StaticFile: Endpoint {
    var endpoint: Restful { Restful(.get, "big.bin") }
    typealias ReturnPayloadType = Data
}

func downloadFromNginx() async throws {
    guard let text = ProcessInfo.processInfo.environment["BENCH_NGINX_ORIGIN"], let nginx = URL(string: text) else {
        FileHandle.standardError.write(Data("BENCH_NGINX_ORIGIN is not set: the nginx download is not measured\n".utf8))
        return
    }
    let files = APIServer(origin: nginx, pathPrefix: "", maximumResponseSize: Int.max)
    try await measureDownload(
        "nginx_download", StaticFile(), warmUp: StaticFile(), on: files, url: nginx.appendingPathComponent("big.bin"),
        megabytes: smoke ? 16 : 1024, withFoundation: true)
    let nioFiles = APIServer(origin: nginx, pathPrefix: "", transport: AsyncHTTPClientTransport.shared, maximumResponseSize: Int.max)
    try await measureDownload(
        "ahc_nginx_download", StaticFile(), warmUp: StaticFile(), on: nioFiles, url: nginx.appendingPathComponent("big.bin"),
        megabytes: smoke ? 16 : 1024)
}

/// `endpoint` downloaded by EndpointKit and `url` by `curl -o`, interleaved, median of three (one
/// in the smoke pass), with EndpointKit's memory growth; `withFoundation` adds URLSession alone (a
/// data task writing each chunk, a download task), to tell Foundation's cost from EndpointKit's.
func measureDownload<E: Endpoint>(
    _ name: String, _ endpoint: E, warmUp: E, on files: APIServer, url: URL, megabytes: Int, withFoundation: Bool = false
) async throws {
    let target = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: target) }
    try await warmUp.download(to: target, on: files)
    var ours: [Double] = []
    var theirs: [Double] = []
    var dataTask: [Double] = []
    var downloadTask: [Double] = []
    var growth = 0
    for _ in 0..<(smoke ? 1 : 3) {
        if withFoundation {
            dataTask.append(try await RawDownload.dataTask(url, to: target))
            downloadTask.append(try await RawDownload.downloadTask(url, to: target))
        }
        let peak = PeakMemory()
        let before = residentBytes()
        let sampled = Locked64()
        let start = now()
        try await endpoint.download(to: target, on: files) { progress in
            if sampled.advance(to: progress.completed, every: 16 << 20) { peak.sample() }
        }
        ours.append(now() - start)
        peak.sample()
        growth = max(growth, peak.value - before)
        let size = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
        precondition(size == megabytes << 20, "downloaded \(size) bytes")
        theirs.append(try curl(url, to: target))
    }
    let prefix = "\(name)_\(megabytes)MB"
    report("\(prefix)_rss_growth", Double(growth) / 1_048_576, "MB", target: "<= 16 MB")
    report("\(prefix)_seconds", median(ours), "s", target: "-")
    report("\(prefix)_curl_seconds", median(theirs), "s", target: "-")
    if withFoundation {
        report("\(prefix)_urlsession_data_task_seconds", median(dataTask), "s", target: "-")
        report("\(prefix)_urlsession_download_task_seconds", median(downloadTask), "s", target: "-")
    }
    report("\(prefix)_time_vs_curl", median(ours) / median(theirs), "x", target: "<= 1.15x")
}

/// When the server sees the connection closed, after the loop breaks or its task is cancelled:
/// over URLSession (10 rounds: a close there can take seconds), then over AsyncHTTPClient (40).
func cancellation() async throws {
    try await cancellation(on: server, prefix: "", rounds: smoke ? 2 : 10, target: "<= 1000 ms")
    try await cancellation(on: nioServer, prefix: "ahc_", rounds: smoke ? 2 : 40, target: "<= 10 ms")
}

func cancellation(on server: APIServer, prefix: String, rounds: Int, target: String) async throws {
    var afterBreak: [Double] = []
    var afterCancel: [Double] = []
    for round in 0..<rounds {
        let key = UUID().uuidString
        let stopped: Double
        if round % 2 == 0 {
            var count = 0
            for try await _ in try await Endless(key: key).call(on: server) {
                count += 1
                if count == 5 { break }
            }
            stopped = now()
        } else {
            let (started, signal) = AsyncStream<Void>.makeStream()
            let reader = Task {
                var count = 0
                for try await _ in try await Endless(key: key).call(on: server) {
                    count += 1
                    if count == 5 { signal.yield() }
                }
            }
            for await _ in started { break }
            reader.cancel()
            stopped = now()
            _ = try? await reader.value
        }
        var closed = try await Closed(key: key).call(on: server)
        let deadline = now() + 20
        while !closed.closed, now() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
            closed = try await Closed(key: key).call(on: server)
        }
        let delay = closed.closed ? (closed.at - stopped) * 1000 : .infinity
        if round % 2 == 0 { afterBreak.append(delay) } else { afterCancel.append(delay) }
    }
    report("\(prefix)cancel_break_to_server_close_max", afterBreak.max() ?? .nan, "ms", target: target)
    report("\(prefix)cancel_task_to_server_close_max", afterCancel.max() ?? .nan, "ms", target: target)
}

/// Small JSON GETs against the benchmark server (`BENCH_ORIGIN`, Hummingbird): one at a time (the
/// median latency) and 64 at once (requests per second), over URLSessionTransport and
/// AsyncHTTPClientTransport in turn, three rounds interleaved, medians.
func smallGETs() async throws {
    guard let text = ProcessInfo.processInfo.environment["BENCH_ORIGIN"], let origin = URL(string: text) else {
        FileHandle.standardError.write(Data("BENCH_ORIGIN is not set: small GETs are not measured\n".utf8))
        return
    }
    let servers = [
        ("urlsession", APIServer(origin: origin, transport: URLSessionTransport.shared)),
        ("ahc", APIServer(origin: origin, transport: AsyncHTTPClientTransport.shared)),
    ]
    let sequential = smoke ? 10 : 300
    let concurrent = smoke ? 128 : 6_400
    var latency: [String: [Double]] = [:]
    var throughput: [String: [Double]] = [:]
    for (_, server) in servers { _ = try await EndpointKitClient.listBranches(on: server) }  // warm-up
    for _ in 0..<(smoke ? 1 : 3) {
        for (name, server) in servers {
            var times: [Double] = []
            for _ in 0..<sequential {
                let start = now()
                _ = try await EndpointKitClient.listBranches(on: server)
                times.append((now() - start) * 1000)
            }
            latency[name, default: []].append(median(times))
            let start = now()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        for _ in 0..<(concurrent / 64) { _ = try await EndpointKitClient.listBranches(on: server) }
                    }
                }
                try await group.waitForAll()
            }
            throughput[name, default: []].append(Double(concurrent) / (now() - start))
        }
    }
    for (name, _) in servers {
        report("\(name)_get_latency_median", median(latency[name] ?? []), "ms", target: "-")
        report("\(name)_64_concurrent_gets_per_second", median(throughput[name] ?? []), "req/s", target: "-")
    }
    report("ahc_get_latency_vs_urlsession", median(latency["ahc"] ?? []) / median(latency["urlsession"] ?? []), "x", target: "<= 1.00x")
    report("ahc_64_concurrent_gets_vs_urlsession", median(throughput["ahc"] ?? []) / median(throughput["urlsession"] ?? []), "x", target: ">= 1.00x")
}

/// Counts progress in steps, so that the resident set is sampled every 16 MiB, not every chunk.
final class Locked64: @unchecked Sendable {
    // `lock` guards `next`.
    private let lock = NSLock()
    private var next: Int64 = 0
    func advance(to value: Int64, every step: Int64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard value >= next else { return false }
        next = value + step
        return true
    }
}

// `--only NAME` runs one figure (`--repeat N` times): for investigating one of them.
let only = arguments.firstIndex(of: "--only").map { arguments[$0 + 1] }
let repeats = arguments.firstIndex(of: "--repeat").flatMap { Int(arguments[$0 + 1]) } ?? 1
let figures: [(String, () async throws -> Void)] = [
    ("latency", latency), ("events", events), ("one-write", oneWriteEvents), ("jsonl", jsonLines), ("download", download), ("nginx", downloadFromNginx),
    ("cancel", cancellation), ("cancel-behind", cancelFarBehind), ("small-gets", smallGETs),
]
do {
    for (name, measure) in figures where only == nil || only == name {
        for _ in 0..<repeats { try await measure() }
    }
} catch {
    FileHandle.standardError.write(Data("StreamingBench failed: \(error)\n".utf8))
    exit(1)
}
