import TabBarModel

extension StoredCustomization {
    /// Appends the value as compact JSON, `{"order":[…],"hidden":[…]}` and `"dynamicTabs":[…]` when there are any
    /// (`DirectJSON`: what `JSONEncoder` gives, member order aside, without its cost on every save).
    func appendJSON(to out: inout [UInt8]) {
        DirectJSON.append(#"{"order":"#, to: &out)
        DirectJSON.appendStrings(order, to: &out)
        DirectJSON.append(#","hidden":"#, to: &out)
        DirectJSON.appendStrings(hidden, to: &out)
        if !dynamicTabs.isEmpty {
            DirectJSON.append(#","dynamicTabs":["#, to: &out)
            for (index, tab) in dynamicTabs.enumerated() {
                if index > 0 {
                    out.append(UInt8(ascii: ","))
                }
                Self.append(tab, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"template":…,"name":…,"parameters":{…}}`, then `"title"` when the tab has one; parameters by name.
    private static func append(_ tab: DynamicTab, to out: inout [UInt8]) {
        DirectJSON.append(#"{"template":"#, to: &out)
        DirectJSON.appendString(tab.template, to: &out)
        DirectJSON.append(#","name":"#, to: &out)
        DirectJSON.appendString(tab.name, to: &out)
        DirectJSON.append(#","parameters":{"#, to: &out)
        for (index, name) in tab.parameters.keys.sorted().enumerated() {
            if index > 0 {
                out.append(UInt8(ascii: ","))
            }
            DirectJSON.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            DirectJSON.appendString(tab.parameters[name, default: ""], to: &out)
        }
        out.append(UInt8(ascii: "}"))
        if let title = tab.title {
            DirectJSON.append(#","title":"#, to: &out)
            DirectJSON.appendString(title, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
