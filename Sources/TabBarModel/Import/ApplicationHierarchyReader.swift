import Foundation

/// Reads the entries of a parsed ApplicationHierarchy.plist into a config document, collecting a problem (pointer
/// into the plist array) for every entry that is not a dictionary, missing or empty key, wrong value type and unknown
/// key. Like `JSONReader`, it taints the generated document's pointers built from unreadable values, so the
/// validator does not report them again.
struct ApplicationHierarchyReader {
    static let titleKey = "TabBarTitle"
    static let imageKey = "TabBarImage"
    static let selectedImageKey = "TabBarSelectedImage"
    static let controllerKey = "RootViewController"
    static let knownKeys: Set<String> = [titleKey, imageKey, selectedImageKey, controllerKey]

    private(set) var problems: [ValidationProblem] = []
    private(set) var tainted: [String] = []
    private var usedIDs: Set<String> = []

    /// One tab per entry, in plist order, so `/tabs/N` of the document is entry `/N` of the plist.
    mutating func readConfig(_ entries: [Any]) -> TabBarConfig {
        let tabs = entries.enumerated().map { index, entry in
            readTab(entry, index: index)
        }
        return TabBarConfig(tabs: tabs)
    }

    private mutating func readTab(_ entry: Any, index: Int) -> Tab {
        let pointer = JSONPointer.appending(index, to: "")
        let tabPointer = JSONPointer.appending(index, to: "/tabs")
        guard let dictionary = entry as? [AnyHashable: Any] else {
            report(
                pointer,
                "expected a dictionary with \(Self.titleKey), \(Self.imageKey) and \(Self.controllerKey), "
                    + "found \(Self.kindDescription(of: entry))"
            )
            tainted.append(tabPointer)
            return Self.placeholderTab
        }
        var values: [String: Any] = [:]
        for (key, value) in dictionary {
            values[String(describing: key.base)] = value
        }
        let title = string(values, Self.titleKey, at: pointer, required: true)
        let image = string(values, Self.imageKey, at: pointer, required: true)
        let selectedImage = string(values, Self.selectedImageKey, at: pointer, required: false)
        let controller = string(values, Self.controllerKey, at: pointer, required: true)
        let known = Self.knownKeys.sorted().joined(separator: ", ")
        for key in values.keys.sorted() where !Self.knownKeys.contains(key) {
            report(JSONPointer.appending(key, to: pointer), "unknown key \"\(key)\" (known keys: \(known))")
        }
        var tab = Self.placeholderTab
        if let title {
            tab.title = LocalizedTitle(key: title, default: title)
        } else {
            tainted.append(tabPointer + "/title")
        }
        if let image {
            tab.icon = Icon(image: image, selectedImage: selectedImage)
        } else {
            tainted.append(tabPointer + "/icon")
        }
        if let controller {
            tab.id = Tab.derivedID(fromControllerName: controller, avoiding: usedIDs)
            usedIDs.insert(tab.id)
            tab.destination.name = controller
        } else {
            tainted += [tabPointer + "/id", tabPointer + "/destination/name"]
        }
        return tab
    }

    /// What an entry's unreadable parts stay as; their pointers are tainted.
    private static let placeholderTab = Tab(
        id: "",
        title: LocalizedTitle(default: ""),
        destination: Destination(type: .viewController, embedInNavigationController: true)
    )

    /// A non-empty string under `key`, or nil after reporting why not (nothing is reported for an absent optional).
    private mutating func string(
        _ values: [String: Any],
        _ key: String,
        at pointer: String,
        required: Bool
    ) -> String? {
        let keyPointer = JSONPointer.appending(key, to: pointer)
        guard let value = values[key] else {
            if required {
                report(keyPointer, "is required")
            }
            return nil
        }
        guard let string = value as? String else {
            report(keyPointer, "expected a string, found \(Self.kindDescription(of: value))")
            return nil
        }
        guard !string.isEmpty else {
            report(keyPointer, "must not be empty")
            return nil
        }
        return string
    }

    private mutating func report(_ pointer: String, _ message: String) {
        problems.append(ValidationProblem(pointer: pointer, message: message))
    }

    // MARK: - Descriptions

    /// "a string", "a number", … for messages.
    static func kindDescription(of value: Any) -> String {
        switch value {
        case is String:
            "a string"
        case is Bool:
            "a boolean"
        case is NSNumber, is Int, is Double:
            "a number"
        case is Data:
            "data"
        case is Date:
            "a date"
        case is [Any]:
            "an array"
        case is [AnyHashable: Any]:
            "a dictionary"
        default:
            "an unsupported value"
        }
    }

    /// A validation problem of the generated document, its message saying so and naming the plist key it comes from.
    static func generatedDocumentProblem(_ problem: ValidationProblem) -> ValidationProblem {
        ValidationProblem(
            pointer: problem.pointer,
            message: "in the generated document (from \(source(of: problem.pointer))): \(problem.message)"
        )
    }

    /// The plist key or entry a pointer of the generated document was built from.
    static func source(of pointer: String) -> String {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard tokens.first == "tabs", tokens.count >= 2, let index = Int(tokens[tokens.startIndex + 1]) else {
            return "the top-level array"
        }
        let entry = JSONPointer.appending(index, to: "")
        let field = Array(tokens.dropFirst(2))
        switch field.first {
        case "id", "destination":
            return JSONPointer.appending(controllerKey, to: entry)
        case "title":
            return JSONPointer.appending(titleKey, to: entry)
        case "icon":
            let key = field.dropFirst().first == "selectedImage" ? selectedImageKey : imageKey
            return JSONPointer.appending(key, to: entry)
        default:
            return "entry \(entry)"
        }
    }
}

/// Why an `ApplicationHierarchy.plist` cannot be imported as a config document.
///
/// Pointers of `invalid` problems come in two kinds, told apart by their first token:
/// - pointers into the plist's top-level array ("/2/RootViewController", "/0/TabBarBadge", "/4" for an entry that is
///   not a dictionary), for missing keys, wrong value types, empty strings and unknown keys;
/// - pointers into the generated document ("/tabs", "/tabs/0/title/default"), for the normal config validation of
///   the result. Their message starts with "in the generated document (from …):" naming the plist key or entry they
///   come from, e.g. "in the generated document (from /0/TabBarTitle): must be 1…64 characters, has 70".
///
/// Plist problems come first, in entry order, then the generated document's.
public enum PlistImportError: Error, Sendable, Equatable {
    /// Not an XML or binary property list, or its top level is not an array (HTTP 400); the message says why.
    case malformed(String)
    /// A property list whose entries are wrong, or whose generated document is invalid (HTTP 422): every problem.
    case invalid([ValidationProblem])
}
