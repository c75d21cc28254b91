extension Customization {
    /// This customization, written from a request that lacks the `absent` tabs (targeting left them out of its tab
    /// bar), with what `previous` held of them kept: each absent id of the previous order goes back right after the
    /// id that preceded it there (the nearest one in this order), or first when none does; absent ids previously
    /// hidden stay hidden. Ids this customization names itself keep the place it gives them; its open tabs are its own.
    public func keeping(_ absent: Set<String>, from previous: Customization) -> Customization {
        var order = self.order
        for (index, id) in previous.order.enumerated() where absent.contains(id) && !order.contains(id) {
            let anchor = previous.order[..<index].last { order.contains($0) }
            let position = anchor.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            order.insert(id, at: position)
        }
        let hidden = self.hidden + previous.hidden.filter { absent.contains($0) && !self.hidden.contains($0) }
        return Customization(order: order, hidden: hidden, dynamicTabs: dynamicTabs)
    }
}
