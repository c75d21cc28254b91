/// What a tab bar shows, made from a ``TabBar``, and the user's changes to it as ``TabOrderEdit``s. Platform
/// neutral: a UIKit app hands it to a `TabBarControllerAdapter`, any other UI reads it directly.
///
/// The items are the tab bar's top-level tabs in its order: ``barItems`` in the bar, then ``moreItems`` under the
/// "More" item the bar needs when there are any (``showsMore``). The selection is the item the app asks for, else
/// the tab bar's ``TabBar/initialTab``, else the first enabled item; a disabled or missing one is passed over.
///
/// The other direction: when the user rearranged the items (`tabBarController(_:didEndCustomizing:changed:)`),
/// ``edit(reorderedTo:)`` gives the ``TabOrderEdit`` to save; ``edit(hiding:)`` and ``edit(showing:)`` do the same
/// for hideable tabs. ``applying(_:)`` shows an edit at once, as the service will once it is saved.
///
/// ```swift
/// var presenter = TabBarPresenter(served, selecting: lastSelectedID)
/// for item in presenter.barItems { print(item.title, item.imageName ?? "-") }
/// if presenter.showsMore { print("More:", presenter.moreItems.map(\.title)) }
///
/// // The user dragged "profile" into the bar, in place of "library":
/// if let edit = presenter.edit(reorderedTo: ["home", "search", "profile", "favorites", "library", "settings"]) {
///     save(edit)                              // PUT …/tab-order with edit.edited
///     presenter = presenter.applying(edit)    // shown at once
/// }
/// ```
public struct TabBarPresenter: Sendable, Hashable {
    /// The tab bar presented.
    public let tabBar: TabBar
    /// Every top-level item in order: the bar's, then those under "More".
    public let items: [Item]
    /// The id of the selected item; nil when no item is enabled.
    public let selectedID: String?

    /// Presents `tabBar`, selecting `selection` when an enabled item has that id, else the tab bar's
    /// ``TabBar/initialTab`` when it is an enabled item, else the first enabled item. A tab without a placement (a
    /// tab bar the app made) is placed by the service's rule (``TabBar/applying(_:)``); one with a placement this
    /// library does not know shows in the bar.
    public init(_ tabBar: TabBar, selecting selection: String? = nil) {
        self.tabBar = tabBar
        items = tabBar.tabs.enumerated().map { index, tab in
            let placement =
                tab.placement
                ?? TabBar.placement(at: index, count: tabBar.tabs.count, maxVisibleTabs: tabBar.maxVisibleTabs)
            return Item(tab: tab, placement: placement)
        }
        let enabled = items.filter(\.isEnabled).map(\.id)
        selectedID = [selection, tabBar.initialTab].compactMap { $0 }.first { enabled.contains($0) } ?? enabled.first
    }

    /// The items shown in the bar, in order; the "More" item, when ``showsMore``, follows them.
    public var barItems: [Item] { items.filter { !$0.isInMore } }
    /// The items under "More", in order.
    public var moreItems: [Item] { items.filter(\.isInMore) }
    /// Whether the bar needs a "More" item.
    public var showsMore: Bool { items.contains(where: \.isInMore) }
    /// The selected item; nil when no item is enabled.
    public var selectedItem: Item? { selectedID.flatMap(item(id:)) }
    /// The selected item's index in ``items``.
    public var selectedIndex: Int? { items.firstIndex { $0.id == selectedID } }
    /// The ids of the tabs the user hid; they are not items (``TabBar/Customization/hidden``).
    public var hiddenIDs: [String] { tabBar.customization?.hidden ?? [] }
    /// The order and hidden tabs presented: the base of every edit made here.
    public var state: TabOrderState { TabOrderState(tabBar) }

    /// The item with this id, if any.
    public func item(id: String) -> Item? {
        items.first { $0.id == id }
    }

    /// The edit from the presented order to `ids`, the new order of every top-level item (the bar's, then those
    /// under "More") as the app's tab bar reports it after the user rearranged it. Ids that are not items are
    /// ignored, as are repeats. Locked items, and items `ids` does not list, keep their index; the other items take
    /// the remaining places in the order `ids` gives them. Hidden tabs stay hidden. Nil when the order is unchanged.
    public func edit(reorderedTo ids: [String]) -> TabOrderEdit? {
        let movable = Set(items.filter(\.isCustomizable).map(\.id))
        var seen = Set<String>()
        let listed = ids.filter { movable.contains($0) && seen.insert($0).inserted }
        var next = listed.makeIterator()
        let order = items.compactMap { seen.contains($0.id) ? next.next() : $0.id }
        return edit(to: TabOrderState(order: order, hidden: state.hidden))
    }

    /// The edit that hides the item `id`; nil when no hideable item has that id.
    public func edit(hiding id: String) -> TabOrderEdit? {
        guard item(id: id)?.isHideable == true else { return nil }
        let base = state
        return edit(to: TabOrderState(order: base.order.filter { $0 != id }, hidden: base.hidden + [id]))
    }

    /// The edit that shows the hidden tab `id` again (the service puts it back at its default place); nil when it
    /// is not hidden. The tab is not in this tab bar: it appears with the service's next answer.
    public func edit(showing id: String) -> TabOrderEdit? {
        let base = state
        guard base.hidden.contains(id) else { return nil }
        return edit(to: TabOrderState(order: base.order, hidden: base.hidden.filter { $0 != id }))
    }

    /// This presenter with `edit` made (``TabOrderEdit/applied(to:)`` on the presented state) and shown as
    /// ``TabBar/applying(_:)`` shows it, keeping the selection where it still can be.
    public func applying(_ edit: TabOrderEdit) -> TabBarPresenter {
        TabBarPresenter(tabBar.applying(edit.applied(to: state)), selecting: selectedID)
    }

    /// The edit from the presented state to `edited`; nil when they are equal.
    private func edit(to edited: TabOrderState) -> TabOrderEdit? {
        let edit = TabOrderEdit(base: state, edited: edited)
        return edit.isEmpty ? nil : edit
    }
}
