extension Customization {
    /// This customization with `tab` open, after the others.
    public func opening(_ tab: DynamicTab) -> Customization {
        var copy = self
        copy.dynamicTabs.append(tab)
        return copy
    }

    /// This customization with the tab named `name` closed and its id gone from the order and the hidden tabs; nil
    /// when no tab of that name is open.
    public func closing(_ name: String) -> Customization? {
        guard let index = dynamicTabs.firstIndex(where: { $0.name == name }) else { return nil }
        var copy = self
        let id = copy.dynamicTabs.remove(at: index).id
        copy.order.removeAll { $0 == id }
        copy.hidden.removeAll { $0 == id }
        return copy
    }
}
