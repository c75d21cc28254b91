/// Body of PUT tab-order: `{"order": [...], "hidden": [...]}` (`hidden` optional).
public struct TabOrderRequest: Sendable, Equatable {
    /// Most ids in `order` and in `hidden`.
    public static let maximumIDs = 50
    /// Longest id accepted: an open tab's, `<template>:<name>`, 64 characters each.
    public static let maximumIDLength = 129

    /// Top-level tab ids in the user's order.
    public var order: [String]
    /// Ids of tabs the user hides.
    public var hidden: [String]

    /// Creates a request.
    public init(order: [String], hidden: [String] = []) {
        self.order = order
        self.hidden = hidden
    }
}
