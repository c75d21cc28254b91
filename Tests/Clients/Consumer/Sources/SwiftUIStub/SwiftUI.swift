// A type-checking stand-in for SwiftUI on Linux, never run: the part of SwiftUI's API that a SwiftUI example of
// docs/ios-client.md would use to show a TabBarPresenter (a TabView of its bar items, a List of its "More" items that
// the user reorders), declared as the iOS SDK declares it to Swift (generics, result builder, isolation, labels),
// with bodies that do nothing or trap. Targets see it as `SwiftUI` (Package.swift passes
// `-module-alias SwiftUI=SwiftUIStub`). When an example uses more of SwiftUI, add that here, declared as SwiftUI
// declares it: the point is that what compiles here compiles against SwiftUI.
@_exported import Foundation

// MARK: - View and its builder

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("SwiftUI stand-in: never run") }
}

// Each view type below conforms to View in an extension, as SwiftUI's interface declares it: so the type (its
// initializers, its use in a result builder) is not main-actor isolated, only what the extension declares.

/// The body of a view that has none of its own (a primitive view).
private func primitive() -> Never { fatalError("SwiftUI stand-in: never run") }

@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent() }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent() }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

extension Optional: View where Wrapped: View {
    public var body: Never { primitive() }
}

public struct EmptyView {
    public init() {}
}

extension EmptyView: View {
    public var body: Never { primitive() }
}

public struct TupleView<T> {
    public var value: T
    public init(_ value: T) { self.value = value }
}

extension TupleView: View {
    public var body: Never { primitive() }
}

public struct _ConditionalContent<TrueContent: View, FalseContent: View> {
}

extension _ConditionalContent: View {
    public var body: Never { primitive() }
}

public struct AnyView {
    public init<V: View>(_ view: V) {}
}

extension AnyView: View {
    public var body: Never { primitive() }
}

// MARK: - State

@propertyWrapper
public struct State<Value>: DynamicProperty {
    // Safe: the stand-in is only type-checked, never run; SwiftUI's State is Sendable.
    private final class Box: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    private let box: Box

    public init(wrappedValue value: Value) { box = Box(value) }
    public init(initialValue value: Value) { box = Box(value) }
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }
    public var projectedValue: Binding<Value> {
        Binding(get: { self.box.value }, set: { self.box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    public init() { self.init(wrappedValue: nil) }
}

@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { self.wrappedValue[keyPath: keyPath] }, set: { self.wrappedValue[keyPath: keyPath] = $0 })
    }
}

public protocol DynamicProperty {}

// MARK: - Views

public struct Text {
    public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
}

extension Text: View {
    public var body: Never { primitive() }
}

public struct Image {
    public init(_ name: String) {}
    public init(systemName: String) {}
}

extension Image: View {
    public var body: Never { primitive() }
}

public struct Label<Title: View, Icon: View> {
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
}

extension Label: View {
    public var body: Never { primitive() }
}

extension Label where Title == Text, Icon == Image {
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
    public init<S: StringProtocol>(_ title: S, image name: String) {}
}

public struct List<SelectionValue: Hashable, Content: View> {
}

extension List: View {
    public var body: Never { primitive() }
}

extension List where SelectionValue == Never {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data
}

extension ForEach: View where Content: View {
    public var body: Never { primitive() }
}

extension ForEach where Content: View, Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { self.data = data }
}

extension ForEach where Content: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
    }
}

/// A view made of a collection's elements, whose rows the user can move.
public protocol DynamicViewContent: View {
    associatedtype Data: Collection
    var data: Data { get }
}

extension ForEach: DynamicViewContent where Content: View {}

extension DynamicViewContent {
    public func onMove(perform action: ((IndexSet, Int) -> Void)?) -> some DynamicViewContent { self }
}

public struct TabView<SelectionValue: Hashable, Content: View> {
    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {}
}

extension TabView: View {
    public var body: Never { primitive() }
}

extension TabView where SelectionValue == Int {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct EditButton {
    public init() {}
}

extension EditButton: View {
    public var body: Never { primitive() }
}

// MARK: - Modifiers

/// What a modifier of this stand-in returns: the view it modified.
public struct ModifiedView<Content: View> {
    public init(_ content: Content) {}
}

extension ModifiedView: View {
    public var body: Never { primitive() }
}

extension View {
    public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View { ModifiedView(self) }
    public func tag<V: Hashable>(_ tag: V) -> some View { ModifiedView(self) }
    public func badge(_ count: Int) -> some View { ModifiedView(self) }
    public func badge(_ label: Text?) -> some View { ModifiedView(self) }
    public func badge<S: StringProtocol>(_ label: S?) -> some View { ModifiedView(self) }
    public func disabled(_ disabled: Bool) -> some View { ModifiedView(self) }
    public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> some View { ModifiedView(self) }
}

// MARK: - Collections

extension MutableCollection {
    /// What `List`'s `onMove` hands over, applied to the collection (SwiftUI declares it).
    public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {}
}
