@testable import DemoAPI
import EndpointKit
import EndpointKitContract
import Foundation
import Testing
import Yams

/// The demo's exported document → the generator → structs (the DemoAPI target, generated with
/// `--documented`) → exported again: both documents hold the same operations, parameters, bodies
/// and responses, compared as structures with every `$ref` resolved (component names may differ:
/// `PurchaseCheer_ReturnPayloadType` comes back as `PurchaseCheerReturnPayloadType`).
@Suite struct RoundTripTests {
    @Test func theDemoDocumentComesBackTheSame() throws {
        let url = Snapshots.package.deletingLastPathComponent().appendingPathComponent("Examples/OpenAPI/openapi.yaml")
        let original = try #require(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
        let exported = try OpenAPIDocument(
            title: "EndpointKit demo", version: "1.0", servers: [.endpointKitDemo()], endpoints: EndpointKitDemoAPI.endpoints)
        let again = try #require(try JSONSerialization.jsonObject(with: exported.json()) as? [String: Any])
        let before = Structure(original).operations()
        let after = Structure(again).operations()
        #expect(before.keys.sorted() == after.keys.sorted())
        #expect(before.count == 6)
        for (operation, shape) in before.sorted(by: { $0.key < $1.key }) {
            #expect(after[operation] == shape, "\(operation)")
        }
    }

    /// A document's operations as canonical JSON text: `$ref`s replaced by what they name, notes
    /// (descriptions, titles, examples) left out, keys sorted.
    struct Structure {
        let document: [String: Any]
        init(_ document: [String: Any]) { self.document = document }

        func operations() -> [String: [String: String]] {
            var result: [String: [String: String]] = [:]
            for (path, item) in document["paths"] as? [String: Any] ?? [:] {
                for (method, operation) in item as? [String: Any] ?? [:] {
                    guard let operation = operation as? [String: Any] else { continue }
                    let parameters = (operation["parameters"] as? [Any] ?? []).map { canonical($0) }.sorted()
                    result["\(method.uppercased()) \(path)"] = [
                        "operationId": operation["operationId"] as? String ?? "",
                        "parameters": parameters.joined(separator: "\n"),
                        "requestBody": canonical(operation["requestBody"] ?? [:]),
                        "responses": canonical(operation["responses"] ?? [:]),
                        "security": canonical(operation["security"] ?? []),
                    ]
                }
            }
            return result
        }

        private func canonical(_ value: Any) -> String {
            let data = try? JSONSerialization.data(withJSONObject: resolved(value, depth: 0), options: [.sortedKeys, .fragmentsAllowed])
            return String(decoding: data ?? Data(), as: UTF8.self)
        }

        private func resolved(_ value: Any, depth: Int) -> Any {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String {
                    let name = String(reference.split(separator: "/").last ?? "")
                    guard depth < 8, let target = (document["components"] as? [String: Any])?["schemas"].flatMap({ ($0 as? [String: Any])?[name] }) else {
                        return ["$recursive": true]
                    }
                    return resolved(target, depth: depth + 1)
                }
                var copy: [String: Any] = [:]
                for (key, member) in object where !["description", "title", "summary", "example", "examples"].contains(key) {
                    copy[key] = resolved(member, depth: depth)
                }
                return copy
            }
            if let array = value as? [Any] { return array.map { resolved($0, depth: depth) } }
            return value
        }
    }
}
