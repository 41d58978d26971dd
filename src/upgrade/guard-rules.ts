/**
 * The upgrade guard's rules, pure: observations of a newly installed version over time → still
 * watching, passed, or failed with a reason. The guard (guard-watch.ts) feeds them what systemd and
 * the daemon's /status.json say and what the service's probe got; times are ms since epoch.
 */

export interface GuardSettings {
  /** How long the new version is watched (`upgrades.guard.watchMinutes`). */
  readonly watchMs: number
  /** More restarts than this during the watch is a restart loop (`upgrades.guard.maxRestarts`). */
  readonly maxRestarts: number
  /** Items pending and the service answering, yet nothing delivered this long (`upgrades.guard.deliverWithinMinutes`). */
  readonly deliverWithinMs: number
  /** How long the new version may take to become READY, or to be READY again after it went down. */
  readonly readyWithinMs: number
}

/** The bridge reaches READY in seconds (outbox open, sources started): three minutes is far beyond a slow SD card. */
export const defaultReadyWithinMs = 3 * 60_000

export const guardSettings = (guard: { readonly watchMinutes: number; readonly maxRestarts: number; readonly deliverWithinMinutes: number }): GuardSettings => ({
  watchMs: guard.watchMinutes * 60_000,
  maxRestarts: guard.maxRestarts,
  deliverWithinMs: guard.deliverWithinMinutes * 60_000,
  readyWithinMs: defaultReadyWithinMs
})

/** systemd's view of scorebridge.service (`systemctl show -p ActiveState,SubState,NRestarts`). */
export interface UnitObservation {
  readonly activeState: string
  readonly subState: string
  /** Automatic restarts (Restart=, the watchdog) since the unit was last started by hand or by the package. */
  readonly restarts: number
}

/** What the daemon's /status.json says about delivery. */
export interface DaemonObservation {
  /** Scores, clicks and undos waiting, all places. */
  readonly pending: number
  /** The newest answer of the service that accepted an item (ms), as the status page shows it. */
  readonly lastDeliveredAt: number | null
  /** Why the service holds delivery back (token rejected, 429 back-off): not the new version's doing. */
  readonly heldBack: string | null
}

/**
 * The service's probe by the guard itself: `answering` (any HTTP answer below 500), `failing` (5xx:
 * the service's own trouble) or `unreachable` (no answer: the venue's internet is down).
 */
export type ServiceReach = "answering" | "failing" | "unreachable"

export interface Observation {
  readonly at: number
  /** Null without systemd (tests, image builds): READY is then the daemon answering. */
  readonly unit: UnitObservation | null
  /** Null when /status.json did not answer. */
  readonly daemon: DaemonObservation | null
  readonly service: ServiceReach
}

export type FailureKind = "never_ready" | "down" | "restart_loop" | "not_delivering"

export interface GuardFailure {
  readonly kind: FailureKind
  /** For people: what was seen, with the figures. */
  readonly text: string
}

export type Verdict =
  | { readonly _tag: "Watching" }
  | { readonly _tag: "Passed"; readonly note: string | null }
  | { readonly _tag: "Failed"; readonly failure: GuardFailure }

export interface GuardState {
  readonly startedAt: number
  readonly everReady: boolean
  /** Since when it has not been READY (the watch's start until its first READY). */
  readonly notReadySince: number | null
  readonly restarts: number
  readonly lastUnitRestarts: number | null
  /** The last time delivery was fine: nothing pending, progress, or the service unable to take it. */
  readonly deliveryFineAt: number
  readonly lastDaemon: DaemonObservation | null
  /** Since when the service has not been answering; null while it answers. */
  readonly outageSince: number | null
  readonly lastUnit: UnitObservation | null
  readonly lastAt: number
}

export const startWatch = (at: number): GuardState => ({
  startedAt: at,
  everReady: false,
  notReadySince: at,
  restarts: 0,
  lastUnitRestarts: null,
  deliveryFineAt: at,
  lastDaemon: null,
  outageSince: null,
  lastUnit: null,
  lastAt: at
})

export const clockText = (ms: number): string => `${new Date(ms).toISOString().slice(11, 16)}Z`

const minutesText = (ms: number): string => {
  const minutes = ms / 60_000
  return Number.isInteger(minutes) ? `${minutes} min` : `${Math.round(ms / 1000)} s`
}

// Type=notify: systemd says active/running only once the daemon sent READY=1.
const isReady = (o: Observation): boolean =>
  o.unit === null ? o.daemon !== null : o.unit.activeState === "active" && o.unit.subState === "running"

const unitText = (unit: UnitObservation | null): string =>
  unit === null ? "its status page does not answer" : `systemd says ${unit.activeState}/${unit.subState}`

// NRestarts starts again from 0 when someone restarts the unit by hand: what came after still counts.
const restartsSince = (before: number | null, now: number): number =>
  before === null ? 0 : now >= before ? now - before : now

const deliveredSince = (before: DaemonObservation | null, now: DaemonObservation): boolean =>
  before !== null && (now.pending < before.pending || (now.lastDeliveredAt ?? 0) > (before.lastDeliveredAt ?? 0))

/** The state after one more observation, and the verdict at that moment. */
export const observe = (settings: GuardSettings, state: GuardState, o: Observation): { readonly state: GuardState; readonly verdict: Verdict } => {
  const ready = isReady(o)
  const restarts = state.restarts + (o.unit === null ? 0 : restartsSince(state.lastUnitRestarts, o.unit.restarts))
  const answering = o.service === "answering"
  const daemon = o.daemon
  // An outage, the service's own errors, a rejected token or a 429 back-off would hold back the
  // old version just the same: the time they last is never counted against the new one.
  const deliveryFine = daemon === null
    ? state.deliveryFineAt
    : daemon.pending === 0 || !answering || daemon.heldBack !== null || state.lastDaemon === null || deliveredSince(state.lastDaemon, daemon)
    ? o.at
    : state.deliveryFineAt
  const next: GuardState = {
    startedAt: state.startedAt,
    everReady: state.everReady || ready,
    notReadySince: ready ? null : state.notReadySince ?? o.at,
    restarts,
    lastUnitRestarts: o.unit?.restarts ?? state.lastUnitRestarts,
    deliveryFineAt: deliveryFine,
    lastDaemon: daemon ?? state.lastDaemon,
    outageSince: answering ? null : state.outageSince ?? o.at,
    lastUnit: o.unit ?? state.lastUnit,
    lastAt: o.at
  }
  const failed = (kind: FailureKind, text: string) => ({ state: next, verdict: { _tag: "Failed", failure: { kind, text } } as const })
  const watchOver = o.at - state.startedAt >= settings.watchMs

  if (restarts > settings.maxRestarts) {
    return failed("restart_loop", `restarted ${restarts} times since the upgrade (more than ${settings.maxRestarts}): a restart loop`)
  }
  if (!next.everReady && (o.at - state.startedAt >= settings.readyWithinMs || watchOver)) {
    // The allowance, not the time the last look happened to come at: the same words on every machine.
    const allowed = Math.min(settings.readyWithinMs, settings.watchMs)
    return failed("never_ready", `never READY within ${minutesText(allowed)} of the upgrade (${unitText(o.unit)})`)
  }
  // Stopped by someone (inactive) is a decision, not a failure of the version.
  const stoppedByHand = o.unit?.activeState === "inactive"
  if (next.everReady && next.notReadySince !== null && !stoppedByHand && o.at - next.notReadySince >= settings.readyWithinMs) {
    return failed("down", `not running since ${clockText(next.notReadySince)}, over ${minutesText(settings.readyWithinMs)} (${unitText(o.unit)})`)
  }
  if (daemon !== null && daemon.pending > 0 && o.at - next.deliveryFineAt >= settings.deliverWithinMs) {
    return failed(
      "not_delivering",
      `${daemon.pending} items pending and nothing delivered for ${minutesText(settings.deliverWithinMs)} while the service answers`
    )
  }
  if (!watchOver) return { state: next, verdict: { _tag: "Watching" } }
  const note = next.outageSince !== null
    ? `the watch ended while the service was ${o.service === "failing" ? "answering errors" : "unreachable"} (since ${clockText(next.outageSince)}): delivery could not be judged, and going back a version would not have helped`
    : daemon?.heldBack != null
    ? `the watch ended while the service held delivery back (${daemon.heldBack}): delivery could not be judged`
    : null
  return { state: next, verdict: { _tag: "Passed", note } }
}

/** One line on where the watch stands, for the journal: it changes only when the picture does. */
export const progressText = (state: GuardState): string => {
  const ready = state.notReadySince === null ? "READY" : state.everReady ? `not READY since ${clockText(state.notReadySince)}` : "not READY yet"
  const delivery = state.lastDaemon === null
    ? "delivery not known yet"
    : state.lastDaemon.pending === 0
    ? "nothing pending"
    : state.deliveryFineAt === state.lastAt
    ? "items pending, no stall"
    : `items pending, nothing delivered since ${clockText(state.deliveryFineAt)}`
  const service = state.outageSince === null ? "service answering" : `service not answering since ${clockText(state.outageSince)}`
  return `${ready}; ${state.restarts} restarts; ${delivery}; ${service}`
}
