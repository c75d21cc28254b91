import Foundation

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
