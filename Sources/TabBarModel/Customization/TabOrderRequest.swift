import Foundation

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

extension TabOrderRequest {
    /// Strict decode: an object with `order` (required) and `hidden` (optional, null = none), each an array of at most
    /// 50 strings of at most 129 characters; unknown fields and wrong types are problems with pointers.
    public static func decode(json: Data) -> Result<TabOrderRequest, TabOrderDecodingError> {
        JSONReader.readBody(json: json) { reader, root in read(root, reader: &reader) }
    }

    private static func read(_ root: JSONValue, reader: inout JSONReader) -> TabOrderRequest {
        var order: [String] = []
        var hidden: [String] = []
        if let object = reader.object(root, at: "", allowedKeys: ["order", "hidden"]) {
            if object["order"] == nil {
                reader.report(object.pointer("order"), "is required")
            } else if let elements = reader.array(object, "order") {
                order = readIDs(elements, at: object.pointer("order"), reader: &reader)
            }
            if let elements = reader.array(object, "hidden") {
                hidden = readIDs(elements, at: object.pointer("hidden"), reader: &reader)
            }
        }
        return TabOrderRequest(order: order, hidden: hidden)
    }

    private static func readIDs(_ elements: [JSONValue], at pointer: String, reader: inout JSONReader) -> [String] {
        if elements.count > maximumIDs {
            reader.report(pointer, "must have at most \(maximumIDs) ids, has \(elements.count)")
        }
        var ids: [String] = []
        ids.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let id) = element else {
                _ = reader.string(element, at: JSONPointer.appending(index, to: pointer))
                continue
            }
            if id.utf8.count > maximumIDLength, id.count > maximumIDLength {
                reader.report(
                    JSONPointer.appending(index, to: pointer),
                    "must be at most \(maximumIDLength) characters, has \(id.count)")
            }
            ids.append(id)
        }
        return ids
    }
}

/// Why a PUT tab-order body was refused before looking at the config.
public enum TabOrderDecodingError: Error, Sendable, Equatable {
    /// Not parseable JSON (HTTP 400); the message says where.
    case malformedJSON(String)
    /// Wrong shape or types (HTTP 422).
    case invalid([ValidationProblem])
}

/// Why a customization cannot be stored for a config.
public enum TabOrderRejection: Error, Sendable, Equatable {
    /// The config has `userCustomizable: false` (HTTP 409).
    case notCustomizable
    /// Duplicate ids or hidden tabs that are not hideable (HTTP 422).
    case invalid([ValidationProblem])
}
