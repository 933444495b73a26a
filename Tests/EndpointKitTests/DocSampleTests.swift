import Foundation
import Testing

/// Every Swift block of README.md and of every DocC article is compiled, as written, twice:
/// `.ci/readme-samples` copies each one into DocSamples/PAGE_BlockNN.swift in this target and in
/// EndpointKitMainActorTests (built as a new Xcode 26 app target is). These tests fail when a page
/// and those files disagree, so a sample cannot change without being compiled again in both.
@Suite struct DocSampleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sampleFolders = ["EndpointKitTests", "EndpointKitMainActorTests"].map {
        root.appendingPathComponent("Tests/\($0)/DocSamples")
    }
    static let fix = "edit the page, then run `python3 .ci/readme-samples`"
    static let notCompiled = "<!-- sample not compiled: "
    static let repeats = "<!-- sample repeats: "

    /// README.md and every article of every DocC catalog, with the prefix of its samples' files.
    static func pages() throws -> [(path: String, label: String)] {
        var pages = [(path: "README.md", label: "README")]
        let sources = root.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard let articles = try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)
            else { continue }
            for article in articles.sorted() where article.hasSuffix(".md") {
                pages.append(("\(catalog)/\(article)", "\(module)_\(article.dropLast(3))"))
            }
        }
        return pages
    }

    /// A page's Swift blocks, numbered from 1, with the HTML comment on the line before each fence.
    static func blocks(of page: String) throws -> [(number: Int, marker: String, lines: [String])] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var blocks: [(number: Int, marker: String, lines: [String])] = []
        var index = 0
        while index < lines.count {
            if lines[index] == "```swift", let end = lines[(index + 1)...].firstIndex(of: "```") {
                let marker = index > 0 && lines[index - 1].hasPrefix("<!-- sample ") ? lines[index - 1] : ""
                blocks.append((blocks.count + 1, marker, Array(lines[(index + 1)..<end])))
                index = end
            }
            index += 1
        }
        return blocks
    }

    static func compiled(_ marker: String) -> Bool {
        !marker.hasPrefix(notCompiled) && !marker.hasPrefix(repeats)
    }

    @Test func `the pages include README and an article of every catalog`() throws {
        let pages = try Self.pages()
        #expect(pages.first?.label == "README")
        for module in ["EndpointKit", "EndpointKitTesting", "EndpointKitContract", "EndpointKitTools", "EndpointKitMCP"] {
            #expect(pages.contains { $0.label == "\(module)_\(module)" }, "\(module)'s landing page")
        }
    }

    @Test func `every Swift block of every page is in a compiled file, line for line and in order`() throws {
        var count = 0
        for page in try Self.pages() {
            for block in try Self.blocks(of: page.path) where Self.compiled(block.marker) {
                count += 1
                let name = String(format: "%@_Block%02d.swift", page.label, block.number)
                for folder in Self.sampleFolders {
                    guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else {
                        Issue.record("\(page.path)'s Swift block \(block.number) has no \(name) in \(folder.path): \(Self.fix)")
                        continue
                    }
                    var compiled = text.components(separatedBy: "\n")[...]
                    for line in block.lines {
                        guard let found = compiled.firstIndex(of: line) else {
                            Issue.record("\(page.path)'s Swift block \(block.number) differs from \(name) in \(folder.path) at \"\(line)\": \(Self.fix)")
                            break
                        }
                        compiled = compiled[(found + 1)...]
                    }
                }
            }
        }
        #expect(count >= 50)  // a floor: a parser that finds no blocks fails here
    }

    @Test func `a block that repeats another is equal to it, line for line`() throws {
        let pages = try Self.pages()
        for page in pages {
            for block in try Self.blocks(of: page.path) where block.marker.hasPrefix(Self.repeats) {
                // <!-- sample repeats: PATH block N -->
                let words = block.marker.dropFirst(Self.repeats.count).dropLast(" -->".count).split(separator: " ")
                let original = try #require(words.count == 3 ? try Self.blocks(of: String(words[0])).first { $0.number == Int(words[2]) } : nil,
                                            "\(page.path)'s block \(block.number) repeats nothing: \(block.marker)")
                #expect(original.lines == block.lines, "\(page.path)'s block \(block.number) differs from \(block.marker)")
                #expect(Self.compiled(original.marker), "\(page.path)'s block \(block.number) repeats a block that is not compiled")
            }
        }
    }

    @Test func `no compiled sample is left over from a block no page has`() throws {
        var names = Set<String>()
        for page in try Self.pages() {
            for block in try Self.blocks(of: page.path) where Self.compiled(block.marker) {
                names.insert(String(format: "%@_Block%02d.swift", page.label, block.number))
            }
        }
        for folder in Self.sampleFolders {
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("_Block") })
            #expect(files.subtracting(names).isEmpty, "\(folder.path) has samples no page has: \(files.subtracting(names).sorted()): \(Self.fix)")
            #expect(names.subtracting(files).isEmpty, "\(folder.path) lacks \(names.subtracting(files).sorted()): \(Self.fix)")
        }
    }

    @Test func `a block left out of compilation says why`() throws {
        for page in try Self.pages() {
            for block in try Self.blocks(of: page.path) where block.marker.hasPrefix(Self.notCompiled) {
                #expect(block.marker.count > "\(Self.notCompiled) -->".count, "\(page.path)'s block \(block.number) gives no reason")
            }
        }
    }
}
