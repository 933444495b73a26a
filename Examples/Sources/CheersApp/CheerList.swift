// SwiftUI exists on Apple platforms only: on Linux this file compiles to nothing, and the macOS
// job of .github/workflows/ci.yml builds it.
#if canImport(SwiftUI)
import EndpointKit
import SwiftUI

/// The cheers on sale, loaded through ``ListCheers`` when the list appears.
struct CheerList: View {
    let server: APIServer
    @State private var cheers: [Cheer]?
    @State private var failure: String?

    var body: some View {
        List(cheers ?? []) { cheer in
            LabeledContent(cheer.name, value: cheer.price, format: .currency(code: "USD"))
        }
        .overlay {
            if let failure {
                ContentUnavailableView("No cheers", systemImage: "wifi.exclamationmark", description: Text(failure))
            } else if cheers == nil {
                ProgressView()
            }
        }
        .task {
            do {
                cheers = try await ListCheers().call(on: server)
            } catch {
                failure = (error as? EndpointError)?.reason ?? error.localizedDescription
            }
        }
    }
}

#Preview {
    CheerList(server: .preview)
}
#endif
