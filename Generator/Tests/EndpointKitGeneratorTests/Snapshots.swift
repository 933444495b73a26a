import EndpointKitGenerator
import Foundation

/// The generator's committed output: `Snapshots/<Name>/` in the package, compiled by the targets of
/// the same name. `ENDPOINTKIT_UPDATE_SNAPSHOTS=1 swift test --package-path Generator` rewrites them.
enum Snapshots {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let documents = package.appendingPathComponent("Tests/EndpointKitGeneratorTests/Documents")

    /// Where the generated files differ from the committed ones, one line per file; empty when
    /// they agree byte for byte.
    static func differences(_ files: [EndpointGenerator.File], snapshot name: String) throws -> [String] {
        let folder = package.appendingPathComponent("Snapshots/" + name)
        if ProcessInfo.processInfo.environment["ENDPOINTKIT_UPDATE_SNAPSHOTS"] == "1" {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files { try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name)) }
        }
        let committed = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        var differences: [String] = []
        if committed != files.map(\.name) { differences.append("files: committed \(committed), generated \(files.map(\.name))") }
        for file in files {
            let text = (try? String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)) ?? ""
            guard text != file.contents else { continue }
            let old = text.split(separator: "\n", omittingEmptySubsequences: false)
            let new = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
            let line = Array(zip(old, new)).firstIndex { $0 != $1 } ?? min(old.count, new.count)
            differences.append("\(file.name):\(line + 1): committed \"\(line < old.count ? old[line] : "")\", generated \"\(line < new.count ? new[line] : "")\"")
        }
        return differences
    }
}
