import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

/// Staged rollouts over HTTP (docs/rollouts.md): the apps' reports of opens, and what people see and do.
struct RolloutHandlers: Sendable {
    let catalog: Catalog
    let supervisor: RolloutSupervisor
    let admin: AdminAccess
    let users: UserAccess
    let metrics: ServiceMetrics?

    /// `POST /v1/clients/{client}/reports`: an app's counts of opens for one config version, `202` once counted in
    /// memory (the next tick adds them to the store). Public like the default tab bar; with user authentication on, a
    /// user token is required. A version that is not live, or a tab without a running staged rollout, is accepted and
    /// not counted.
    func report(_ request: Request) throws -> Response {
        if users.authenticator != nil {
            _ = try users.user(pathUser: "me", authorization: request.headers["Authorization"], verifying: true)
        }
        let client = try request.clientID()
        _ = try catalog.requireLive(client)
        do {
            guard request.body.count <= RolloutReport.maximumBytes else {
                throw APIError.payloadTooLarge(limit: RolloutReport.maximumBytes)
            }
            let report: RolloutReport
            switch RolloutReport.decode(json: try request.jsonBody()) {
            case .success(let decoded): report = decoded
            case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
            case .failure(.invalid(let problems)): throw APIError.invalidDocument("The report is not valid.", problems)
            }
            let counted = supervisor.count(client: client, version: report.version, tabs: report.tabs)
            metrics?.reported(counted: counted, refused: false)
            return .json(ReportReceipt(counted: counted), status: 202)
        } catch {
            metrics?.reported(counted: 0, refused: true)
            throw error
        }
    }

    /// `GET /v1/clients/{client}/rollouts` (scope `read`): each staged rollout of the live config, where it stands.
    func list(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let live = try catalog.requireLive(request)
        let now = Date()
        let states = catalog.store.rolloutStates(client: live.stored.client)
        return .json(
            RolloutList(
                client: live.stored.client, version: live.stored.version,
                rollouts: live.config.stagedRollouts.map { tab, rollout in
                    let state = states.first { $0.tab == tab && $0.plan == rollout.planKey(tab: tab) }
                    var body = RolloutBody(tab, rollout, state, now)
                    if state?.phase == .running,
                        let waiting = supervisor.waitingReason(client: live.stored.client, tab: tab)
                    {
                        body.reason = waiting
                    }
                    return body
                }))
    }

    /// `POST /v1/clients/{client}/rollouts/{tab}/{action}` (scope `publish`): pause, resume, advance or roll back a
    /// staged rollout, audited with the key's name; the rollout as it stands after.
    func act(_ action: RolloutSupervisor.Action, _ request: Request) throws -> Response {
        let key = try admin.requireScope(.publish, request)
        let live = try catalog.requireLive(request)
        let tab = request.pathParameters["tab"] ?? ""
        let state = try supervisor.act(
            action, client: live.stored.client, tab: tab, key: key.name, requestID: request.requestID)
        let current = catalog.live(live.stored.client) ?? live
        guard let rollout = current.stagedRollouts[tab]?.rollout else {
            throw APIError.notFound("Client '\(live.stored.client)' has no staged rollout of tab '\(tab)'.")
        }
        return .json(RolloutBody(tab, rollout, state, Date()))
    }
}

/// The answer of a report.
struct ReportReceipt: Encodable {
    /// The tabs counted: those with a running staged rollout in the live version.
    var counted: Int
}

/// The answer of `GET …/rollouts`.
struct RolloutList: Encodable {
    var client: String
    var version: Int
    var rollouts: [RolloutBody]
}

/// Where one staged rollout stands, with its figures.
struct RolloutBody: Encodable {
    var tab: String
    var state: String
    /// The stage reached, from 0, and how many there are.
    var stage: Int
    var stages: Int
    /// The coverage in effect.
    var coverage: Double
    var stageStartedAt: Date?
    /// When the stage's hold ends (a running rollout before its last stage).
    var nextStageAt: Date?
    var opened: Int
    var failed: Int
    var failureRate: Double
    var maxFailureRate: Double
    var minOpens: Int
    var reason: String?

    /// The rollout of `tab` standing at `state` (nil: not started yet, at its first stage), at `now`.
    init(_ tab: String, _ rollout: Rollout, _ state: RolloutState?, _ now: Date) {
        self.tab = tab
        let stages = rollout.stages ?? []
        self.stages = stages.count
        stage = state?.stage ?? 0
        self.state = state?.phase.rawValue ?? RolloutState.Phase.running.rawValue
        coverage = rollout.coverage(at: state?.standing)
        stageStartedAt = state?.stageStartedAt
        opened = state?.opened ?? 0
        failed = state?.failed ?? 0
        failureRate = opened + failed == 0 ? 0 : Double(failed) / Double(opened + failed)
        maxFailureRate = rollout.guard?.maxFailureRate ?? 0
        minOpens = rollout.guard?.minOpens ?? 0
        reason = state?.reason
        guard let state else {
            reason = "starts at the next tick"
            return
        }
        if state.phase == .running, stage < stages.count - 1 {
            nextStageAt = stages[stage].hold.flatMap(ISODuration.seconds).map { state.stageStartedAt + $0 }
            if case .wait(let waiting) = rollout.judge(
                stage: stage, startedAt: state.stageStartedAt, opened: opened, failed: failed, now: now)
            {
                reason = waiting
            }
        }
    }
}
