/// Reading the targeting fields of a config document (docs/design/model.md, "Targeting"): a tab's `when` and
/// `rollout`, the document's `groups` and `experiments`. As for the rest of the document, anything that cannot be
/// read is reported and its pointer tainted; an array element that cannot be read stands as a placeholder so that
/// the others keep their pointers.
extension JSONReader {
    private static let rolloutKeys: Set<String> = ["coverage", "seed", "hashAttribute", "stages", "guard"]
    private static let stageKeys: Set<String> = ["coverage", "hold"]
    private static let guardKeys: Set<String> = ["maxFailureRate", "minOpens"]
    private static let experimentKeys: Set<String> = [
        "key", "when", "coverage", "seed", "hashAttribute", "weights", "variations",
    ]
    private static let variationKeys: Set<String> = ["order", "maxVisibleTabs", "initialTab", "appearance"]

    /// A condition: any JSON object, its grammar checked later (`ConditionValidator`).
    mutating func readCondition(_ value: JSONValue, at pointer: String) -> Condition? {
        guard case .object = value else {
            report(pointer, "expected an object, found \(value.kindDescription)")
            return nil
        }
        return Condition(json: value)
    }

    mutating func readRollout(_ value: JSONValue, at pointer: String) -> Rollout? {
        guard let object = object(value, at: pointer, allowedKeys: Self.rolloutKeys) else {
            return nil
        }
        let stagesPointer = object.pointer("stages")
        let stages = array(object, "stages").map { values in
            elements(values, at: stagesPointer, placeholder: RolloutStage(coverage: 0)) { $0.readStage($1, at: $2) }
        }
        return Rollout(
            coverage: number(object, "coverage"),
            seed: string(object, "seed"),
            hashAttribute: string(object, "hashAttribute"),
            stages: stages,
            guard: object["guard"].flatMap { readGuard($0, at: object.pointer("guard")) }
        )
    }

    mutating func readStage(_ value: JSONValue, at pointer: String) -> RolloutStage? {
        guard let object = object(value, at: pointer, allowedKeys: Self.stageKeys) else {
            return nil
        }
        return RolloutStage(
            coverage: required(object, "coverage").flatMap { number($0, at: object.pointer("coverage")) } ?? 0,
            hold: string(object, "hold"))
    }

    mutating func readGuard(_ value: JSONValue, at pointer: String) -> RolloutGuard? {
        guard let object = object(value, at: pointer, allowedKeys: Self.guardKeys) else {
            return nil
        }
        let rate = required(object, "maxFailureRate").flatMap { number($0, at: object.pointer("maxFailureRate")) }
        let minOpens = required(object, "minOpens") != nil ? integer(object, "minOpens") : nil
        return RolloutGuard(maxFailureRate: rate ?? 0, minOpens: minOpens ?? 0)
    }

    /// `groups`: an object of arrays of strings, keyed by group name. A group whose values cannot be read keeps its
    /// name, so conditions naming it are not reported again.
    mutating func readGroups(_ value: JSONValue, at pointer: String) -> [String: [String]]? {
        guard let object = object(value, at: pointer, allowedKeys: nil) else {
            return nil
        }
        var groups: [String: [String]] = [:]
        for (name, value) in object.members.sorted(by: { $0.key < $1.key }) {
            let groupPointer = object.pointer(name)
            let values = array(value, at: groupPointer) ?? []
            groups[name] = elements(values, at: groupPointer, placeholder: "") { $0.string($1, at: $2) }
        }
        return groups
    }

    mutating func readExperiments(_ elements: [JSONValue], at pointer: String) -> [Experiment] {
        let placeholder = Experiment(key: "", variations: [])
        return self.elements(elements, at: pointer, placeholder: placeholder) { $0.readExperiment($1, at: $2) }
    }

    mutating func readExperiment(_ value: JSONValue, at pointer: String) -> Experiment? {
        guard let object = object(value, at: pointer, allowedKeys: Self.experimentKeys) else {
            return nil
        }
        let key = requiredString(object, "key") ?? ""
        let when = object["when"].flatMap { readCondition($0, at: object.pointer("when")) }
        let coverage = number(object, "coverage")
        let seed = string(object, "seed")
        let hashAttribute = string(object, "hashAttribute")
        let weights = array(object, "weights").map { values in
            elements(values, at: object.pointer("weights"), placeholder: 0) { $0.number($1, at: $2) }
        }
        let variationsPointer = object.pointer("variations")
        let variations = required(object, "variations").flatMap { array($0, at: variationsPointer) }.map { values in
            elements(values, at: variationsPointer, placeholder: Variation()) { $0.readVariation($1, at: $2) }
        }
        return Experiment(
            key: key,
            when: when,
            coverage: coverage,
            seed: seed,
            hashAttribute: hashAttribute,
            weights: weights,
            variations: variations ?? []
        )
    }

    mutating func readVariation(_ value: JSONValue, at pointer: String) -> Variation? {
        guard let object = object(value, at: pointer, allowedKeys: Self.variationKeys) else {
            return nil
        }
        let order = array(object, "order").map { values in
            elements(values, at: object.pointer("order"), placeholder: "") { $0.string($1, at: $2) }
        }
        return Variation(
            order: order,
            maxVisibleTabs: integer(object, "maxVisibleTabs"),
            initialTab: string(object, "initialTab"),
            appearance: object["appearance"].flatMap { readAppearance($0, at: object.pointer("appearance")) }
        )
    }
}
