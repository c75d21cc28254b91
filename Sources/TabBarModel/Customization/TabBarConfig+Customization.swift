extension TabBarConfig {
    /// docs/design/model.md, "Writing a customization". Duplicate ids in `order` or `hidden` and hiding a live tab that is not
    /// hideable are invalid (pointer to the offending entry); ids that are not live top-level tabs are not stored
    /// and are listed in `ignored` (request order, `order` then `hidden`, no duplicates); a config with
    /// `userCustomizable: false` refuses every write.
    public func check(
        _ request: TabOrderRequest
    ) -> Result<(customization: Customization, ignored: [String]), TabOrderRejection> {
        check(request, plan: mergePlan)
    }

    /// `check(_:)` with the config's `mergePlan` computed beforehand.
    public func check(
        _ request: TabOrderRequest, plan: MergePlan
    ) -> Result<(customization: Customization, ignored: [String]), TabOrderRejection> {
        guard isUserCustomizable else {
            return .failure(.notCustomizable)
        }
        var problems: [ValidationProblem] = []
        for (name, ids) in [("order", request.order), ("hidden", request.hidden)]
        where ids.count > TabOrderRequest.maximumIDs {
            problems.append(
                ValidationProblem(
                    pointer: "/\(name)",
                    message: "must have at most \(TabOrderRequest.maximumIDs) ids, has \(ids.count)"
                )
            )
        }
        var seenOrder: Set<String> = []
        for (index, id) in request.order.enumerated() where !seenOrder.insert(id).inserted {
            problems.append(ValidationProblem(pointer: "/order/\(index)", message: "duplicate id \"\(id)\""))
        }
        var seenHidden: Set<String> = []
        for (index, id) in request.hidden.enumerated() {
            if !seenHidden.insert(id).inserted {
                problems.append(ValidationProblem(pointer: "/hidden/\(index)", message: "duplicate id \"\(id)\""))
            } else if let position = plan.position(of: id), !plan.isHideable(position) {
                problems.append(
                    ValidationProblem(pointer: "/hidden/\(index)", message: "tab \"\(id)\" is not hideable")
                )
            }
        }
        guard problems.isEmpty else {
            return .failure(.invalid(problems))
        }
        var ignored: [String] = []
        var seenIgnored: Set<String> = []
        for id in request.order + request.hidden where plan.position(of: id) == nil && seenIgnored.insert(id).inserted {
            ignored.append(id)
        }
        let customization = Customization(
            order: request.order.filter { plan.position(of: $0) != nil },
            hidden: request.hidden.filter { plan.position(of: $0) != nil }
        )
        return .success((customization, ignored))
    }
}
