/// What targeting decided for one request: which tabs are absent and which experiment variation applies. Requests
/// with the same outcome get the same tab bar, so the outcome (its ``key``), not the raw context, names cached
/// answers and entity tags.
public struct TargetingOutcome: Sendable, Hashable {
    /// Every tab present and no experiment: the tab bar of a config without targeting.
    public static let everything = TargetingOutcome(key: "", absentIDs: [], experiment: nil, experimentIndex: nil)

    /// Empty for ``everything``; otherwise `.a` and the absent tabs as a hexadecimal bit set over the targeted tabs
    /// and/or `.e` with the experiment's index and variation. Letters, digits and `.` only.
    public let key: String
    /// Ids of the tabs (top level or children) targeting leaves out of this request's tab bar.
    public let absentIDs: Set<String>
    /// Ids of the templates whose open tabs are left out: the request's build cannot open them
    /// (``excluding(_:)``).
    public let absentTemplates: Set<String>
    /// The experiment that applies and its variation.
    public let experiment: ExperimentAssignment?
    /// The index of that experiment in the document's `experiments`.
    let experimentIndex: Int?

    init(
        key: String, absentIDs: Set<String>, absentTemplates: Set<String> = [], experiment: ExperimentAssignment?,
        experimentIndex: Int?
    ) {
        self.key = key
        self.absentIDs = absentIDs
        self.absentTemplates = absentTemplates
        self.experiment = experiment
        self.experimentIndex = experimentIndex
    }
}
