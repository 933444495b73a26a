import Foundation
import Testing

/// Every Swift block of README.md is compiled, as written, twice: `.ci/readme-samples` copies each
/// one into ReadmeSamples/ReadmeBlockNN.swift in this target and in EndpointKitMainActorTests (built
/// as a new Xcode 26 app target is). These tests fail when README and those files disagree, so a
/// sample cannot change without being compiled again in both.
@Suite struct ReadmeSampleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sampleFolders = ["EndpointKitTests", "EndpointKitMainActorTests"].map {
        root.appendingPathComponent("Tests/\($0)/ReadmeSamples")
    }
    static let fix = "edit README.md, then run `python3 .ci/readme-samples`"

    /// README's Swift blocks, numbered from 1, with the HTML comment on the line before each fence.
    static func blocks() throws -> [(number: Int, marker: String, lines: [String])] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
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

    @Test func `every README Swift block is in a compiled file, line for line and in order`() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 15)
        for folder in Self.sampleFolders {
            for block in blocks where !block.marker.hasPrefix("<!-- sample not compiled: ") {
                let name = String(format: "ReadmeBlock%02d.swift", block.number)
                guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else {
                    Issue.record("README's Swift block \(block.number) has no \(name) in \(folder.path): \(Self.fix)")
                    continue
                }
                var compiled = text.components(separatedBy: "\n")[...]
                for line in block.lines {
                    guard let found = compiled.firstIndex(of: line) else {
                        Issue.record("README's Swift block \(block.number) differs from \(name) in \(folder.path) at \"\(line)\": \(Self.fix)")
                        break
                    }
                    compiled = compiled[(found + 1)...]
                }
            }
        }
    }

    @Test func `no compiled sample is left over from a block README no longer has`() throws {
        let compiledNumbers = Set(try Self.blocks().filter { !$0.marker.hasPrefix("<!-- sample not compiled: ") }.map(\.number))
        for folder in Self.sampleFolders {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("ReadmeBlock") }
            #expect(files.count == compiledNumbers.count, "\(folder.path)")
            for file in files {
                let number = Int(file.dropFirst("ReadmeBlock".count).prefix(2)) ?? 0
                #expect(compiledNumbers.contains(number), "\(file) matches no compiled README block: \(Self.fix)")
            }
        }
    }

    @Test func `a block left out of compilation says why`() throws {
        for block in try Self.blocks() where block.marker.hasPrefix("<!-- sample not compiled: ") {
            #expect(block.marker.count > "<!-- sample not compiled:  -->".count, "block \(block.number) gives no reason")
        }
    }
}
