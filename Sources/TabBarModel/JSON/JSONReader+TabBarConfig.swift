/// Reading a config document. Anything that cannot be read is reported and replaced by a placeholder
/// whose pointer is tainted, so the result can still go through semantic validation.
extension JSONReader {
    private static let configKeys: Set<String> = [
        "tabs", "maxVisibleTabs", "initialTab", "userCustomizable", "defaultLocale", "appearance", "groups",
        "experiments", "tabTemplates",
    ]
    private static let tabKeys: Set<String> = [
        "id", "title", "icon", "destination", "badge", "enabled", "locked", "hideable", "children", "deprecated",
        "replaces", "when", "rollout", "startsAt", "endsAt",
    ]
    private static let templateKeys: Set<String> = [
        "id", "title", "icon", "destination", "parameters", "maxOpen",
    ]
    private static let titleKeys: Set<String> = ["key", "default", "localized"]
    private static let iconKeys: Set<String> = ["image", "selectedImage"]
    private static let destinationKeys: Set<String> = [
        "type", "name", "nib", "embedInNavigationController", "identifier", "url", "parameters",
    ]
    private static let appearanceKeys: Set<String> = [
        "backgroundImage", "tintColor", "selectedTintColor", "unselectedTintColor",
    ]

    /// Reads the whole document.
    mutating func readConfig(_ root: JSONValue) -> TabBarConfig {
        guard let object = object(root, at: "", allowedKeys: Self.configKeys) else {
            return TabBarConfig(tabs: [])
        }
        var tabs: [Tab] = []
        if let elements = array(object, "tabs") {
            tabs = readTabs(elements, at: object.pointer("tabs"))
        } else if object["tabs"] == nil {
            report(object.pointer("tabs"), "is required")
        }
        return TabBarConfig(
            tabs: tabs,
            maxVisibleTabs: integer(object, "maxVisibleTabs"),
            initialTab: string(object, "initialTab"),
            userCustomizable: bool(object, "userCustomizable"),
            defaultLocale: string(object, "defaultLocale"),
            appearance: object["appearance"].flatMap { readAppearance($0, at: object.pointer("appearance")) },
            groups: object["groups"].flatMap { readGroups($0, at: object.pointer("groups")) },
            experiments: array(object, "experiments").map { readExperiments($0, at: object.pointer("experiments")) },
            tabTemplates: array(object, "tabTemplates").map { values in
                let pointer = object.pointer("tabTemplates")
                let placeholder = TabTemplate(
                    id: "", title: LocalizedTitle(default: ""), destination: Destination(type: .url))
                return elements(values, at: pointer, placeholder: placeholder) { $0.readTemplate($1, at: $2) }
            }
        )
    }

    mutating func readTemplate(_ value: JSONValue, at pointer: String) -> TabTemplate? {
        guard let object = object(value, at: pointer, allowedKeys: Self.templateKeys) else {
            return nil
        }
        var template = TabTemplate(
            id: requiredString(object, "id") ?? "", title: LocalizedTitle(default: ""),
            destination: Destination(type: .url))
        if let value = required(object, "title") {
            template.title = readTitle(value, at: object.pointer("title")) ?? template.title
        }
        template.icon = object["icon"].flatMap { readIcon($0, at: object.pointer("icon")) }
        if let value = required(object, "destination") {
            template.destination = readDestination(value, at: object.pointer("destination")) ?? template.destination
        }
        template.parameters = array(object, "parameters").map { values in
            elements(values, at: object.pointer("parameters"), placeholder: "") { $0.string($1, at: $2) }
        }
        template.maxOpen = integer(object, "maxOpen")
        return template
    }

    private mutating func readTabs(_ elements: [JSONValue], at pointer: String) -> [Tab] {
        elements.enumerated().map { index, element in
            readTab(element, at: JSONPointer.appending(index, to: pointer))
        }
    }

    mutating func readTab(_ value: JSONValue, at pointer: String) -> Tab {
        let placeholder = Tab(id: "", title: LocalizedTitle(default: ""), destination: Destination(type: .url))
        guard let object = object(value, at: pointer, allowedKeys: Self.tabKeys) else {
            return placeholder
        }
        let id = requiredString(object, "id") ?? ""
        var title = placeholder.title
        if let value = required(object, "title") {
            title = readTitle(value, at: object.pointer("title")) ?? title
        }
        let icon = object["icon"].flatMap { readIcon($0, at: object.pointer("icon")) }
        var destination = placeholder.destination
        if let value = required(object, "destination") {
            destination = readDestination(value, at: object.pointer("destination")) ?? destination
        }
        let badge = string(object, "badge")
        let enabled = bool(object, "enabled")
        let locked = bool(object, "locked")
        let hideable = bool(object, "hideable")
        let children = array(object, "children").map { readTabs($0, at: object.pointer("children")) }
        let deprecated = enumeration(Deprecation.self, object, "deprecated")
        let replaces = string(object, "replaces")
        let when = object["when"].flatMap { readCondition($0, at: object.pointer("when")) }
        let rollout = object["rollout"].flatMap { readRollout($0, at: object.pointer("rollout")) }
        let startsAt = string(object, "startsAt")
        let endsAt = string(object, "endsAt")
        return Tab(
            id: id,
            title: title,
            icon: icon,
            destination: destination,
            badge: badge,
            enabled: enabled,
            locked: locked,
            hideable: hideable,
            children: children,
            deprecated: deprecated,
            replaces: replaces,
            when: when,
            rollout: rollout,
            startsAt: startsAt,
            endsAt: endsAt
        )
    }

    mutating func readTitle(_ value: JSONValue, at pointer: String) -> LocalizedTitle? {
        guard let object = object(value, at: pointer, allowedKeys: Self.titleKeys) else {
            return nil
        }
        return LocalizedTitle(
            key: string(object, "key"),
            default: requiredString(object, "default") ?? "",
            localized: stringMap(object, "localized")
        )
    }

    mutating func readIcon(_ value: JSONValue, at pointer: String) -> Icon? {
        guard let object = object(value, at: pointer, allowedKeys: Self.iconKeys) else {
            return nil
        }
        return Icon(image: requiredString(object, "image") ?? "", selectedImage: string(object, "selectedImage"))
    }

    mutating func readDestination(_ value: JSONValue, at pointer: String) -> Destination? {
        guard let object = object(value, at: pointer, allowedKeys: Self.destinationKeys) else {
            return nil
        }
        let type: DestinationType
        if object["type"] == nil {
            report(object.pointer("type"), "is required")
            taint(pointer)
            type = .url
        } else if let read = enumeration(DestinationType.self, object, "type") {
            type = read
        } else {
            taint(pointer)
            type = .url
        }
        return Destination(
            type: type,
            name: string(object, "name"),
            nib: string(object, "nib"),
            embedInNavigationController: bool(object, "embedInNavigationController"),
            identifier: string(object, "identifier"),
            url: string(object, "url"),
            parameters: stringMap(object, "parameters")
        )
    }

    mutating func readAppearance(_ value: JSONValue, at pointer: String) -> Appearance? {
        guard let object = object(value, at: pointer, allowedKeys: Self.appearanceKeys) else {
            return nil
        }
        return Appearance(
            backgroundImage: string(object, "backgroundImage"),
            tintColor: string(object, "tintColor"),
            selectedTintColor: string(object, "selectedTintColor"),
            unselectedTintColor: string(object, "unselectedTintColor")
        )
    }
}
