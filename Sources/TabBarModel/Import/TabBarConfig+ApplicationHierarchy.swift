import Foundation

extension TabBarConfig {
    /// Converts an ApplicationHierarchy.plist (XML or binary property list) into a validated config document.
    ///
    /// The plist is an array of dictionaries with `TabBarTitle` (title key and default), `TabBarImage` (icon image),
    /// `RootViewController` (a `viewController` destination embedded in a navigation controller, and the tab id via
    /// `Tab.derivedID(fromControllerName:avoiding:)`) and optionally `TabBarSelectedImage`. Any other key is a
    /// problem. OpenStep text plists are `malformed`. See `PlistImportError` for how problems point.
    public static func importApplicationHierarchy(_ data: Data) -> Result<TabBarConfig, PlistImportError> {
        let root: Any
        var format = PropertyListSerialization.PropertyListFormat.xml
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return .failure(.malformed("not a property list: \(reason ?? error.localizedDescription)"))
        }
        guard format != .openStep else {
            return .failure(.malformed("not an XML or binary property list (OpenStep text plists are not accepted)"))
        }
        guard let entries = root as? [Any] else {
            let kind = ApplicationHierarchyReader.kindDescription(of: root)
            return .failure(.malformed("the top level must be an array of dictionaries, found \(kind)"))
        }
        var reader = ApplicationHierarchyReader()
        let config = reader.readConfig(entries)
        var validator = ConfigValidator(config: config, tainted: reader.tainted)
        let generated = validator.run().map(ApplicationHierarchyReader.generatedDocumentProblem)
        let problems = reader.problems + generated
        return problems.isEmpty ? .success(config) : .failure(.invalid(problems))
    }
}
