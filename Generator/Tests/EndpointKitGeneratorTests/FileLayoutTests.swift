import Foundation
import Testing
@testable import EndpointKitGenerator

/// How the generated code is cut into files: the compiler's parallel jobs each take an equal number
/// of files, so one large file keeps one core busy while the others wait.
struct FileLayoutTests {
    /// A document with `count` operations in tag `Runs`, each sending an object of twelve
    /// properties, and `unused` components no operation uses.
    static func document(count: Int, unused: Int) -> String {
        let properties = (1...12).map { "p\($0): { type: string }" }.joined(separator: ", ")
        var yaml = """
            openapi: 3.1.0
            info: { title: T, version: "1" }
            paths:
              /runs2: { get: { operationId: listRuns2, tags: [Runs2], responses: { "204": { description: none } } } }

            """
        for index in 1...count {
            yaml += """
                  /runs/\(index): { post: { operationId: createRun\(index), tags: [Runs], requestBody: { content: { application/json: { schema: { type: object, properties: { \(properties) } } } } }, responses: { "204": { description: none } } } }

                """
        }
        yaml += "components:\n  schemas:\n"
        for index in 1...unused {
            yaml += "    Unused\(index): { type: object, properties: { \(properties) } }\n"
        }
        return yaml
    }

    @Test func `a large tag is cut between declarations into files of like size, no name taken twice`() throws {
        let files = try EndpointGenerator.generate(DocumentLoader.load(Data(Self.document(count: 40, unused: 30).utf8))).files
        let names = files.map(\.name)
        #expect(Set(names).count == names.count)
        // `Runs2` is the tag's own file; the parts of `Runs` go on with the next free number.
        #expect(names.filter { $0.hasPrefix("Runs") }.sorted() == ["Runs.swift", "Runs2.swift", "Runs3.swift"])
        #expect(names.filter { $0.hasPrefix("Schemas") }.sorted() == ["Schemas.swift", "Schemas2.swift"])
        let text = files.map(\.contents).joined()
        for index in 1...40 { #expect(text.components(separatedBy: "struct CreateRun\(index): Endpoint").count == 2) }
        for index in 1...30 { #expect(text.components(separatedBy: "struct Unused\(index): Codable").count == 2) }
        #expect(text.components(separatedBy: "struct ListRuns2: Endpoint").count == 2)
        let headerLines = 5   // the two comment lines, a blank, the two imports and a blank, less one
        for file in files {
            let lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= EndpointGenerator.fileLineBudget + headerLines + 2, "\(file.name): \(lines) lines")
            // Every part starts with a declaration, never with a blank line or the inside of one.
            let body = file.contents.components(separatedBy: "import Foundation\n\n")[1]
            #expect(body.first?.isWhitespace == false, "\(file.name)")
        }
    }

    /// Prefect's document cut at 400 lines made 58 files: three of the driver's jobs (25 files at
    /// most each), the third run after the other two on two cores.
    @Test func `the budget rises until the files fit two jobs, and no further than cutting helps`() {
        // Ten groups of thirty 50-line declarations: at 400 lines, 5 parts each and the server's
        // file, 51; at 500, 4 parts each, 41.
        #expect(EndpointGenerator.lineBudget(for: Array(repeating: Array(repeating: 50, count: 30), count: 10), otherFiles: 1) == 500)
        // A small document keeps the least budget.
        #expect(EndpointGenerator.lineBudget(for: [[100, 200], [50]], otherFiles: 1) == EndpointGenerator.fileLineBudget)
        // 60 small tags and one of 40 declarations: 61 files at the least, three jobs anyway, so
        // the large tag may still be cut up to 75 files in all.
        let many = Array(repeating: [30], count: 60) + [Array(repeating: 100, count: 40)]
        #expect(EndpointGenerator.lineBudget(for: many, otherFiles: 1) == EndpointGenerator.fileLineBudget)
        // 73 small tags and the same large one: one more file fits under 75, so the large tag is
        // cut in two (its 40 declarations, 4,040 lines, in parts of at most 2,100).
        let more = Array(repeating: [30], count: 73) + [Array(repeating: 100, count: 40)]
        #expect(EndpointGenerator.lineBudget(for: more, otherFiles: 0) == 2100)
    }
}
