import EndpointKitGenerator
import Foundation
import Testing

/// Text from the document reaches generated comments and string literals, never code: titles,
/// versions, descriptions, summaries, tags, enum values, keys, header names and the server's name
/// (Documents/hostile.json), with every kind of line break, quotes and interpolations. The
/// snapshot (Snapshots/Hostile) is the HostileMCP target, which compiles.
@Suite struct HostileDocumentTests {
    static let name = "evil\"\n;let injectedName = 1"

    @Test func `no text from the document becomes a line of code`() throws {
        let loaded = try DocumentLoader.load(Data(contentsOf: Snapshots.documents.appendingPathComponent("hostile.json")))
        let files = try EndpointGenerator.generate(loaded, options: .init(mcpServer: Self.name)).files
        for file in files {
            for (number, line) in file.contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = Self.outsideLiterals(line).drop { $0 == " " }
                guard !code.hasPrefix("//") else { continue }
                #expect(!code.contains("injected") && !code.contains("boom"), "\(file.name):\(number + 1): \(line)")
            }
            // Every line break in the document's text is written as an escape or a space.
            #expect(!file.contents.contains("\r") && !file.contents.contains("\u{2028}") && !file.contents.contains("\u{2029}"), "\(file.name)")
        }
        #expect(try Snapshots.differences(files, snapshot: "Hostile") == [])
    }

    /// `line` with the inside of each string literal left out (escapes read as Swift reads them).
    static func outsideLiterals(_ line: Substring) -> String {
        var code = ""
        var inLiteral = false
        var escaped = false
        for character in line {
            if inLiteral {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inLiteral = false; code.append(character) }
                continue
            }
            if character == "\"" { inLiteral = true }
            code.append(character)
        }
        return code
    }
}
