/// What kind of screen a tab opens.
public enum DestinationType: String, Codable, Sendable, Hashable, CaseIterable {
    /// A view controller class (`name`, optional `nib`, `embedInNavigationController`).
    case viewController
    /// A storyboard (`name`, optional `identifier`).
    case storyboard
    /// A web page or deep link (`url`).
    case url
}
