import TabBarModel

extension StoredCustomization {
    /// Appends the value as compact JSON, `{"order":[…],"hidden":[…]}` (`DirectJSON`: what `JSONEncoder` gives,
    /// without its cost on every save).
    func appendJSON(to out: inout [UInt8]) {
        DirectJSON.append(#"{"order":"#, to: &out)
        DirectJSON.appendStrings(order, to: &out)
        DirectJSON.append(#","hidden":"#, to: &out)
        DirectJSON.appendStrings(hidden, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
