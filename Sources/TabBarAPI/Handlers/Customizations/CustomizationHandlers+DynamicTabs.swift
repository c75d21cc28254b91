import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

/// The tabs a user opens (docs/design/model.md, "Tabs a user opens"): stored with the user's customization, under
/// the same revision and ETag as the tab order, and with the same authentication and `If-Match` rules.
extension CustomizationHandlers {
    /// `GET …/users/{user}/dynamic-tabs`: the open tabs, in the order they were opened.
    func listDynamicTabs(_ request: Request) throws -> Response {
        let read = try storedCustomization(request)
        if let notModified = read.validators.notModified(request) { return notModified }
        let tabs = (read.entry?.value?.dynamicTabs ?? []).map(DynamicTabBody.init)
        return read.validators.jsonResponse(
            CanonicalJSON.encode(DynamicTabsBody(dynamicTabs: tabs, revision: read.revision)))
    }

    /// `POST …/users/{user}/dynamic-tabs`: opens a tab (201 with its `Location`), or answers the one already open
    /// under the name (200, nothing written).
    func openDynamicTab(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try users.authorizedUser(request)
        let live = try catalog.requireLive(client)
        let opening: OpenDynamicTabRequest
        switch OpenDynamicTabRequest.decode(json: try request.jsonBody()) {
        case .success(let decoded): opening = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)): throw APIError.invalidDocument("The tab to open is not valid.", problems)
        }
        let location = "/v1/clients/\(client)/users/\(user)/dynamic-tabs/\(opening.name)"
        return try updateCustomization(request, client: client, user: user) { current in
            let value = current?.value ?? Customization()
            switch live.config.open(opening, given: value.dynamicTabs) {
            case .success((let tab, false)):
                let revision = current?.revision ?? 0
                return .answer(Self.opened(tab, revision: revision, user: user, status: 200, location: location))
            case .success((let tab, true)):
                return .save(value.opening(tab)) { entry in
                    Self.opened(tab, revision: entry.revision, user: user, status: 201, location: location)
                }
            case .failure(.tooMany(let template, let maxOpen)):
                throw APIError.tooManyOpenTabs(template: template, maxOpen: maxOpen)
            case .failure(.invalid(let problems)):
                throw APIError.invalidDocument("The tab cannot be opened from the live config.", problems)
            }
        }
    }

    /// `DELETE …/users/{user}/dynamic-tabs/{name}`: closes the tab (204), its id gone from the order and the hidden
    /// tabs; 404 when none of that name is open.
    func closeDynamicTab(_ request: Request) throws -> Response {
        let client = try request.clientID()
        let user = try users.authorizedUser(request)
        let name = request.pathParameters["name"] ?? ""
        guard DynamicTab.isValidName(name) else {
            throw APIError.invalidParameter("name", "a tab name matches \(DynamicTab.namePattern)")
        }
        _ = try catalog.requireLive(client)
        return try updateCustomization(request, client: client, user: user) { current in
            guard let closed = current?.value?.closing(name) else {
                throw APIError.dynamicTabNotOpen(name)
            }
            return .save(closed) { entry in
                var response = Response.noContent
                response.headers.add(name: "ETag", value: EntityTag.tabOrder(revision: entry.revision, user: user))
                return response
            }
        }
    }

    private static func opened(
        _ tab: DynamicTab, revision: UInt64, user: String, status: Int, location: String
    ) -> Response {
        var response = Response.json(
            encoded: CanonicalJSON.encode(OpenedDynamicTabBody(tab: DynamicTabBody(tab), revision: revision)))
        response.status = status
        response.headers.add(name: "ETag", value: EntityTag.tabOrder(revision: revision, user: user))
        response.headers.add(name: "Location", value: location)
        return response
    }
}
