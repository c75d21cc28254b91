import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension APIHandlers {
    /// `GET …/users/{user}/tab-order`: the stored customization, or the empty default.
    func getTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try request.userID()
        _ = try requireLive(client)
        guard let entry = store.customization(client: client, user: user) else {
            return .json(TabOrderBody(order: [], hidden: [], revision: 0))
        }
        let value = entry.value ?? StoredCustomization(order: [], hidden: [])
        return .json(TabOrderBody(order: value.order, hidden: value.hidden, revision: entry.revision))
    }

    /// `PUT …/users/{user}/tab-order`: validates against the live config and stores durably.
    func putTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try request.userID()
        let live = try requireLive(client)
        guard live.config.isUserCustomizable else { throw APIError.notCustomizable(client) }
        let body = try request.jsonBody()
        let tabOrder: TabOrderRequest
        switch TabOrderRequest.decode(json: body) {
        case .success(let decoded): tabOrder = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The tab order is not valid.", problems)
        }
        let checked: (customization: Customization, ignored: [String])
        switch live.config.check(tabOrder) {
        case .success(let result): checked = result
        case .failure(.notCustomizable): throw APIError.notCustomizable(client)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The tab order does not fit the live config.", problems)
        }
        let entry = try store.saveCustomization(
            client: client, user: user,
            StoredCustomization(order: checked.customization.order, hidden: checked.customization.hidden),
            expectedRevision: nil)
        return .json(
            SavedTabOrderBody(
                order: checked.customization.order, hidden: checked.customization.hidden,
                revision: entry.revision, ignored: checked.ignored))
    }

    /// `DELETE …/users/{user}/tab-order`: back to the default order; idempotent.
    func deleteTabOrder(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try request.userID()
        _ = try requireLive(client)
        _ = try store.deleteCustomization(client: client, user: user)
        return .noContent
    }
}
