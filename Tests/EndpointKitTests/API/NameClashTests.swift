import Foundation
import Testing

/// No public type of EndpointKit's products may share its name with a public type of a framework an
/// app imports beside it: in a file that imports both, Swift cannot tell them apart ("'Link' is
/// ambiguous for type lookup in this context"), and the app, not EndpointKit, has to spell
/// `EndpointKit.Link` everywhere.
///
/// The frameworks cannot be imported here (Linux), so their type names are listed by hand from
/// Apple's documentation (the 26 SDKs), keeping the general-sounding ones an HTTP library might
/// pick. EndpointKit's names are read from its sources, so a new public type is checked the day it
/// is added.
@Suite struct NameClashTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let apple: [String: Set<String>] = [
        "SwiftUI": [
            "AccessibilityTraits", "ActionSheet", "Alert", "Alignment", "Angle", "AngularGradient", "Animation",
            "AnyGesture", "AnyLayout", "AnyShape", "AnyShapeStyle", "AnyTransition", "AnyView", "App", "AppStorage",
            "Axis", "BackgroundStyle", "Binding", "Bindable", "BorderedButtonStyle", "Button", "ButtonRole",
            "ButtonStyle", "Canvas", "Capsule", "Circle", "Color", "ColorPicker", "ColorScheme", "CommandGroup",
            "CommandMenu", "Commands", "ContainerRelativeShape", "ContentMode", "ContentUnavailableView",
            "ContextMenu", "ControlGroup", "ControlSize", "DatePicker", "DisclosureGroup", "DismissAction",
            "Divider", "DocumentGroup", "DragGesture", "DynamicTypeSize", "Edge", "EdgeInsets", "EditButton",
            "EditMode", "Ellipse", "EmptyView", "Environment", "EnvironmentKey", "EnvironmentObject",
            "EnvironmentValues", "EquatableView", "EventModifiers", "FetchRequest", "FillStyle", "FocusState",
            "FocusedBinding", "FocusedValue", "Font", "ForEach", "ForegroundStyle", "Form", "Gauge",
            "GeometryProxy", "GeometryReader", "Gesture", "GestureState", "Gradient", "Grid", "GridItem", "GridRow",
            "Group", "GroupBox", "HStack", "HelpLink", "HorizontalAlignment", "Image", "ImagePaint", "ImageRenderer",
            "KeyEquivalent", "KeyPress", "KeyframeAnimator", "Label", "LabelStyle", "LabeledContent", "Layout",
            "LayoutSubview", "LayoutSubviews", "LazyHGrid", "LazyHStack", "LazyVGrid", "LazyVStack",
            "LinearGradient", "Link", "List", "ListStyle", "LocalizedStringKey", "LongPressGesture",
            "MagnifyGesture", "Material", "Menu", "MenuBarExtra", "MenuStyle", "ModifiedContent", "MultiDatePicker",
            "Namespace", "NavigationLink", "NavigationPath", "NavigationSplitView", "NavigationStack",
            "NavigationView", "ObservedObject", "OpenURLAction", "OutlineGroup", "PasteButton", "Path",
            "PhaseAnimator", "Picker", "PickerStyle", "PreferenceKey", "PreviewProvider", "PrimitiveButtonStyle",
            "ProgressView", "ProposedViewSize", "RadialGradient", "Rectangle", "RedactionReasons", "RefreshAction",
            "RenameButton", "RotateGesture", "RoundedRectangle", "Scene", "ScenePhase", "SceneStorage",
            "ScrollView", "ScrollViewProxy", "ScrollViewReader", "SearchFieldPlacement", "SecureField", "Section",
            "Settings", "ShapeStyle", "Shape", "ShareLink", "Slider", "Spacer", "SpatialTapGesture", "Spring",
            "State", "StateObject", "Stepper", "StrokeStyle", "SubmitLabel", "SubmitTriggers", "Tab", "TabView",
            "Table", "TableColumn", "TableRow", "TapGesture", "Text", "TextEditor", "TextField", "TextFieldStyle",
            "TimelineView", "Toggle", "ToggleStyle", "ToolbarContent", "ToolbarItem", "ToolbarItemGroup",
            "ToolbarItemPlacement", "Transaction", "Transition", "TupleView", "UnevenRoundedRectangle", "UnitPoint",
            "VStack", "VerticalAlignment", "View", "ViewBuilder", "ViewModifier", "Visibility", "Window",
            "WindowGroup", "ZStack",
        ],
        "SwiftData": [
            "Attribute", "DataStore", "DefaultStore", "FetchDescriptor", "HistoryDescriptor", "Index",
            "MigrationStage", "Model", "ModelActor", "ModelConfiguration", "ModelContainer", "ModelContext",
            "PersistentIdentifier", "PersistentModel", "Query", "Relationship", "Schema", "SchemaMigrationPlan",
            "Transient", "Unique", "VersionedSchema",
        ],
        "Observation": [
            "Observable", "ObservationIgnored", "ObservationRegistrar", "ObservationTracked", "Observations",
        ],
        "Foundation": [
            "AttributedString", "Bundle", "ByteCountFormatter", "CachedURLResponse", "Calendar", "CharacterSet",
            "CocoaError", "Data", "Date", "DateComponents", "DateFormatter", "DateInterval", "Decimal",
            "Expression", "FileHandle", "FileManager", "FormatStyle", "HTTPCookie", "HTTPCookieStorage",
            "HTTPURLResponse", "ISO8601DateFormatter", "IndexPath", "IndexSet", "InputStream", "JSONDecoder",
            "JSONEncoder", "JSONSerialization", "Locale", "Measurement", "Notification", "NotificationCenter",
            "NumberFormatter", "Operation", "OperationQueue", "OutputStream", "POSIXError", "PersonNameComponents",
            "Predicate", "Process", "ProcessInfo", "Progress", "PropertyListDecoder", "PropertyListEncoder",
            "RunLoop", "Scanner", "SortDescriptor", "Stream", "Thread", "TimeZone", "Timer", "URL",
            "URLAuthenticationChallenge", "URLCache", "URLComponents", "URLCredential", "URLError",
            "URLProtectionSpace", "URLProtocol", "URLQueryItem", "URLRequest", "URLResponse", "URLSession",
            "URLSessionConfiguration", "URLSessionTask", "UUID", "UserDefaults", "XMLParser",
        ],
        "FoundationModels": [
            "ConvertibleFromGeneratedContent", "ConvertibleToGeneratedContent", "DynamicGenerationSchema",
            "Generable", "GeneratedContent", "GenerationGuide", "GenerationID", "GenerationOptions",
            "GenerationSchema", "Guide", "Instructions", "InstructionsBuilder", "InstructionsRepresentable",
            "LanguageModelSession", "Prompt", "PromptBuilder", "PromptRepresentable", "SystemLanguageModel",
            "Tool", "Transcript",
        ],
        "Combine": [
            "AnyCancellable", "AnyPublisher", "AnySubscriber", "Cancellable", "CombineIdentifier",
            "ConnectablePublisher", "CurrentValueSubject", "Deferred", "Empty", "Fail", "Future",
            "ImmediateScheduler", "Just", "ObservableObject", "ObservableObjectPublisher", "PassthroughSubject",
            "Published", "Publisher", "Publishers", "Record", "Scheduler", "Subject", "Subscriber", "Subscribers",
            "Subscription", "TopLevelDecoder", "TopLevelEncoder",
        ],
        // Their types carry the UI and NS prefixes, which EndpointKit must not use (checked below); a few
        // names without a prefix:
        "UIKit": ["UIApplication", "UIView", "UIViewController", "UIImage", "UIColor", "UIFont"],
        "AppKit": ["NSApplication", "NSView", "NSViewController", "NSImage", "NSColor", "NSFont"],
    ]

    /// The top-level public types of the four products, read from their sources once for the
    /// suite's tests (a regular expression on every line took seconds of a debug build's time).
    static func publicTypeNames() throws -> [String: String] {
        try scanned.get()
    }

    private static let scanned = Result { try scanPublicTypeNames() }

    private static func scanPublicTypeNames() throws -> [String: String] {
        let declaration = try Regex(#"^(?:public|open) +(?:final +)?(?:struct|enum|class|protocol|actor|typealias) +(\w+)"#)
        var names: [String: String] = [:]
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            where line.hasPrefix("public") || line.hasPrefix("open") {
                if let match = try declaration.firstMatch(in: String(line)), let name = match.output[1].substring {
                    names[String(name)] = file.lastPathComponent
                }
            }
        }
        return names
    }

    @Test func `the sources declare the public types the test expects to find`() throws {
        let names = try Self.publicTypeNames()
        #expect(names.count > 40)
        for known in ["Endpoint", "Restful", "APIServer", "WebLink", "MessageBody", "StubTransport", "JSONSchema", "ToolDefinition", "AsyncHTTPClientTransport"] {
            #expect(names[known] != nil, "\(known) not found: the scan is broken")
        }
    }

    /// What a Vapor or Hummingbird route file writes unqualified beside EndpointKit (issue 51). The
    /// frameworks' names are read from their sources by `.ci/server-framework-names`.
    @Test func `the server frameworks' list holds the names route files write every day`() {
        let vapor = ServerFrameworkNames.all["Vapor 4.122.3"] ?? []
        let hummingbird = ServerFrameworkNames.all["Hummingbird 2.28.1"] ?? []
        for name in ["Request", "Response", "Application", "AsyncMiddleware", "HTTPMethod", "HTTPStatus", "Content", "Abort", "Server", "Middleware"] {
            #expect(vapor.contains(name), "\(name) is missing from Vapor's names: the scan is broken")
        }
        for name in ["Request", "Response", "Router", "Application"] {
            #expect(hummingbird.contains(name), "\(name) is missing from Hummingbird's names: the scan is broken")
        }
    }

    @Test func `no public type of EndpointKit shares its name with one Vapor or Hummingbird exports`() throws {
        let names = try Self.publicTypeNames()
        for (framework, types) in ServerFrameworkNames.all.sorted(by: { $0.key < $1.key }) {
            for name in names.keys.sorted() where types.contains(name) {
                Issue.record("EndpointKit's \(name) (\(names[name]!)) has the name of \(framework)'s \(name): a route file that imports both cannot write it unqualified")
            }
        }
    }

    @Test func `no public type of EndpointKit shares its name with one of SwiftUI, SwiftData, Observation, Foundation, FoundationModels, Combine, UIKit or AppKit`() throws {
        let names = try Self.publicTypeNames()
        for (framework, types) in Self.apple.sorted(by: { $0.key < $1.key }) {
            for name in names.keys.sorted() where types.contains(name) {
                Issue.record("EndpointKit's \(name) (\(names[name]!)) has the name of \(framework)'s \(name): rename it")
            }
        }
        for name in names.keys.sorted() {
            let prefix = name.prefix(3)
            let reserved = (prefix.hasPrefix("UI") || prefix.hasPrefix("NS")) && prefix.last?.isUppercase == true
            #expect(!reserved, "\(name) uses a prefix of Apple's UI frameworks")
        }
    }
}
