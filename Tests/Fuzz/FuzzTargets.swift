// libFuzzer targets for the parsers that read what a server or a model sends. Compiled together
// with the library's sources into one module (so internal parsers are reachable) by run.sh:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -module-name EndpointKit Sources/… FuzzTargets.swift
//
// One binary serves every target; ENDPOINTKIT_FUZZ_TARGET names the one to run. Each checks a
// property besides "no crash" where the parser has one: a parse split at any byte equals the
// parse in one piece, a safe file name is safe, printed JSON reads back as the same value.
import Foundation

private let target = ProcessInfo.processInfo.environment["ENDPOINTKIT_FUZZ_TARGET"] ?? ""

/// Fails the run, with what was expected: libFuzzer keeps the input that did it.
private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("property violated: \(message())\n".utf8))
        abort()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    switch target {
    case "sse": fuzzServerSentEvents(bytes)
    case "lines": fuzzLines(bytes)
    case "link": fuzzLinkHeader(bytes)
    case "disposition": fuzzContentDisposition(bytes)
    case "dates": fuzzDates(bytes)
    case "url": fuzzURLReferences(bytes)
    case "arguments": fuzzToolArguments(bytes)
    default:
        FileHandle.standardError.write(Data("set ENDPOINTKIT_FUZZ_TARGET to sse, lines, link, disposition, dates, url or arguments\n".utf8))
        exit(2)
    }
    return 0
}

/// Where to split an input: from its first byte, so that the fuzzer explores split points too.
private func splitPoint(_ bytes: [UInt8]) -> Int {
    bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
}

// MARK: - Server-Sent Events

private func parseEvents(_ pieces: [ArraySlice<UInt8>]) -> Result<[RawServerSentEvent], ServerSentEventParser.Overflow> {
    var parser = ServerSentEventParser(maximumEventSize: 4096)
    var events: [RawServerSentEvent] = []
    do {
        for piece in pieces { events += try parser.consume(piece) }
    } catch {
        return .failure(error)
    }
    return .success(events)
}

private func fuzzServerSentEvents(_ bytes: [UInt8]) {
    let whole = parseEvents([bytes[...]])
    let split = splitPoint(bytes)
    let halves = parseEvents([bytes[..<split], bytes[split...]])
    require(whole == halves, "SSE parse split at \(split) differs from the parse in one piece")
    if bytes.count <= 512 {
        let bytewise = parseEvents(bytes.indices.map { bytes[$0...$0] })
        require(whole == bytewise, "SSE parse byte by byte differs from the parse in one piece")
    }
}

// MARK: - Lines (JSON Lines)

private func splitLines(_ pieces: [ArraySlice<UInt8>]) -> Result<[[UInt8]], LineSplitter.Overflow> {
    var splitter = LineSplitter(maximumLength: 1024)
    var lines: [[UInt8]] = []
    do {
        for piece in pieces { lines += try splitter.consume(Data(piece)) }
    } catch {
        return .failure(error)
    }
    if let last = splitter.finish() { lines.append(last) }
    return .success(lines)
}

private func fuzzLines(_ bytes: [UInt8]) {
    let whole = splitLines([bytes[...]])
    let split = splitPoint(bytes)
    require(whole == splitLines([bytes[..<split], bytes[split...]]), "lines split at \(split) differ from the lines in one piece")
    if case .success(let lines) = whole {
        for line in lines {
            require(!line.contains(UInt8(ascii: "\n")) && line.count <= 1024, "a line holds a newline or passed its limit")
        }
    }
}

// MARK: - Headers

private func fuzzLinkHeader(_ bytes: [UInt8]) {
    let header = String(decoding: bytes, as: UTF8.self)
    let base = URL(string: "https://api.example.com/v1/items?page=2")
    let links = LinkHeaderParser.links(in: header, base: base)
    require(links == LinkHeaderParser.links(in: header, base: base), "the same Link header parsed twice differs")
    for link in links {
        require(link.url.scheme != nil, "a link without a scheme: \(link.url)")
    }
}

private func fuzzContentDisposition(_ bytes: [UInt8]) {
    let header = String(decoding: bytes, as: UTF8.self)
    guard let name = ContentDisposition.filename(in: header) else { return }
    require(!name.isEmpty && name.utf8.count <= 255, "a file name of \(name.utf8.count) bytes")
    // By scalar: a file system reads bytes, whatever graphemes they form.
    require(!name.unicodeScalars.contains("/") && !name.unicodeScalars.contains("\\"), "a file name with a path separator: \(name)")
    require(name.unicodeScalars.first != ".", "a file name starting with a dot: \(name)")
    require(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "a file name with a control character")
    require(ContentDisposition.sanitized(name) == name, "sanitizing a safe name changed it: \(name)")
}

private func fuzzDates(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    if let wait = RetryPolicy.retryAfter(text, now: now) {
        require(wait >= 0 && !wait.isNaN, "Retry-After \(text) gives a wait of \(wait)")
    }
    if let date = HTTPDate.parse(text) {
        require(date.timeIntervalSince1970.isFinite, "an HTTP date that is not finite")
    }
    // RFC 3339: a date read back from what it writes is the same whole second.
    if let date = RFC3339.date(from: text) {
        let written = RFC3339.string(from: date)
        require(RFC3339.date(from: written)?.timeIntervalSince1970 == date.timeIntervalSince1970.rounded(.down),
                "\(text) reads as \(date.timeIntervalSince1970), written \(written), which reads back differently")
    }
}

// MARK: - URL references and percent-encoding

private func fuzzURLReferences(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let escaped = PercentEncoding.escapingDisallowed(in: Substring(text), isReference: true)
    require(PercentEncoding.escapingDisallowed(in: escaped, isReference: true) == escaped, "escaping is not idempotent for \(text)")
    if let resolved = PercentEncoding.resolve(text, against: URL(string: "https://api.example.com/v1/items/")) {
        require(resolved.scheme != nil, "a resolved reference without a scheme: \(resolved)")
    }
    // Decoded by hand, byte for byte: Foundation's `removingPercentEncoding` drops a leading BOM
    // (found by the fuzzer), which a server decoding the bytes keeps.
    let encoded = Array(PercentEncoding.encode(text).utf8)
    var decoded: [UInt8] = []
    var index = 0
    while index < encoded.count {
        if encoded[index] == UInt8(ascii: "%"), index + 2 < encoded.count,
           let byte = UInt8(String(decoding: encoded[index + 1...index + 2], as: UTF8.self), radix: 16) {
            decoded.append(byte)
            index += 3
        } else {
            require(encoded[index] != UInt8(ascii: "%"), "a lone % in the encoding of \(text)")
            decoded.append(encoded[index])
            index += 1
        }
    }
    require(decoded == Array(text.utf8), "percent-encoding \(text) does not decode back to its bytes")
}

// MARK: - Tool arguments

/// A tool schema with what arguments reach: nesting, lists, enums, bounds, a reference, a union.
private let schema: JSONValue = {
    let text = ##"{"type":"object","properties":{"name":{"type":"string","maxLength":20},"count":{"type":"integer","format":"int32","minimum":-5,"maximum":500},"ratio":{"type":["number","null"],"format":"float"},"size":{"type":"string","enum":["s","m","l"]},"ship_to":{"$ref":"#/$defs/Address"},"items":{"type":"array","items":{"$ref":"#/$defs/Item"},"maxItems":8},"tags":{"type":"object","additionalProperties":{"type":"string"}},"either":{"anyOf":[{"type":"integer"},{"type":"string"}]}},"required":["name"],"$defs":{"Address":{"type":"object","properties":{"zip":{"type":"string"},"next":{"$ref":"#/$defs/Address"}}},"Item":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","format":"int64"}},"required":["sku"]}}}"##
    return try! JSONParser.parse(text)
}()

private func fuzzToolArguments(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let value = try? JSONParser.parse(text) else { return }
    let printed = value.jsonText()
    require((try? JSONParser.parse(printed)) == value, "printed JSON does not read back as the same value: \(printed)")
    _ = try? ArgumentValidator(schema: schema).validate(value, against: schema)
    // An integer by its digits is an integer as a Double too (a Double may round a fraction away,
    // which is why the digits decide).
    if case .number(let number) = value, let decimal = DecimalText(number), decimal.isInteger,
       let double = Double(number), double.isFinite {
        require(double == double.rounded(), "\(number) is an integer by its digits but not as a Double")
    }
    if case .array(let elements) = value, elements.count == 2, case .number(let a) = elements[0], case .number(let b) = elements[1],
       let x = DecimalText(a), let y = DecimalText(b), let dx = Double(a), let dy = Double(b), dx.isFinite, dy.isFinite {
        // Exact order agrees with Double's wherever Double tells the two apart.
        if dx < dy { require(x < y, "\(a) < \(b) as Doubles but not by their digits") }
        if dy < dx { require(y < x, "\(b) < \(a) as Doubles but not by their digits") }
        require(!(x < y && y < x) && (x == y) == !(x < y || y < x), "\(a) and \(b) are not ordered consistently")
    }
}
