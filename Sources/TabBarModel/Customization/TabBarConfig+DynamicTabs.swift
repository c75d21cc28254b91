extension TabBarConfig {
    /// Opening a tab for a user whose open tabs are `openTabs` (docs/design/model.md, "Tabs a user opens"): the tab
    /// already open under the request's name, whatever else the request says (`isNew` false: opening is idempotent
    /// by name); else the new tab, when the config has the template (422 at `/template`), the template declares every
    /// parameter given (422 at `/parameters/NAME`) and fewer than its `maxOpen` tabs of it are open (409).
    public func open(
        _ request: OpenDynamicTabRequest, given openTabs: [DynamicTab]
    ) -> Result<(tab: DynamicTab, isNew: Bool), DynamicTabRejection> {
        if let existing = openTabs.first(where: { $0.name == request.name }) {
            return .success((existing, false))
        }
        guard let template = template(request.template) else {
            let known = Set((tabTemplates ?? []).map(\.id))
            let hint = KeySuggestion.didYouMean(request.template, in: known)
            let message = "names no tab template \"\(request.template)\"" + hint
            return .failure(.invalid([ValidationProblem(pointer: "/template", message: message)]))
        }
        let declared = Set(template.parameters ?? [])
        let undeclared = request.parameters.keys.filter { !declared.contains($0) }.sorted()
        guard undeclared.isEmpty else {
            return .failure(
                .invalid(
                    undeclared.map { name in
                        ValidationProblem(
                            pointer: JSONPointer.appending(name, to: "/parameters"),
                            message: "is not a parameter of tab template \"\(template.id)\""
                                + KeySuggestion.didYouMean(name, in: declared))
                    }))
        }
        let maxOpen = template.effectiveMaxOpen
        guard openTabs.count(where: { $0.template == template.id }) < maxOpen else {
            return .failure(.tooMany(template: template.id, maxOpen: maxOpen))
        }
        let tab = DynamicTab(
            template: template.id, name: request.name, parameters: request.parameters, title: request.title)
        return .success((tab, true))
    }
}
