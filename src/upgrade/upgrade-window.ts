import type { UpgradeWindowOptions } from "../config/upgrades.ts"

/** What one place's status says about interrupting it (from the daemon's `/status.json`). */
export interface PlaceActivity {
  readonly key: string
  /** The running event's key; null when none runs or the daemon does not know yet. */
  readonly liveEventKey: string | null
  readonly clicksWaiting: number
  readonly undosWaiting: number
}

/** What asking the running daemon gave. `at` is the address asked, for the messages. */
export type DaemonAnswer =
  | { readonly _tag: "Answered"; readonly places: ReadonlyArray<PlaceActivity> }
  /** Nothing listens at the status address: no bridge to interrupt. */
  | { readonly _tag: "NotRunning"; readonly at: string }
  /** Something listens but gave no usable status (timeout, error, not the bridge's JSON). */
  | { readonly _tag: "NotAnswering"; readonly at: string; readonly detail: string }

export interface WindowInput {
  readonly daemon: DaemonAnswer
  readonly options: UpgradeWindowOptions
  /** ms since epoch. */
  readonly now: number
  /** When the current run of deferrals began (ms since epoch); null when the last check found a window. */
  readonly deferredSince: number | null
}

export interface WindowVerdict {
  /** True: an upgrade may restart the bridge now. */
  readonly ok: boolean
  /** What speaks against now, one line each, each naming its court (also when ok after too long a deferral). */
  readonly reasons: ReadonlyArray<string>
  /** The deferral state to keep: when the current run of deferrals began; null once a window was found. */
  readonly deferredSince: number | null
  /** One line for people: the verdict and why. */
  readonly summary: string
}

const hourMs = 3_600_000

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`

const waitingText = ({ clicksWaiting, undosWaiting }: PlaceActivity): string =>
  [clicksWaiting > 0 ? plural(clicksWaiting, "click") : "", undosWaiting > 0 ? plural(undosWaiting, "undo") : ""]
    .filter((part) => part !== "")
    .join(" and ")

/** One line per court that must not be interrupted now, by the rules `options` turns on. */
export const placeReasons = (places: ReadonlyArray<PlaceActivity>, options: UpgradeWindowOptions): ReadonlyArray<string> =>
  places.flatMap((place) => [
    ...(options.waitForLiveEvents && place.liveEventKey !== null ? [`${place.key}: event ${place.liveEventKey} is live`] : []),
    ...(options.waitForPendingClicks && place.clicksWaiting + place.undosWaiting > 0 ? [`${place.key}: ${waitingText(place)} waiting`] : [])
  ])

const checked = (options: UpgradeWindowOptions): string => {
  const what = [options.waitForLiveEvents ? "a live event" : "", options.waitForPendingClicks ? "a click waiting" : ""].filter((w) => w !== "")
  return what.length === 0
    ? "upgrades.window waits neither for live events nor for clicks"
    : `no court has ${what.join(" or ")}`
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/u, "Z")

const hours = (ms: number) => `${Math.floor(ms / hourMs)} h`

/**
 * Whether an upgrade may restart the bridge now: not while a court has a live event or a click
 * waiting (each rule can be turned off), unless upgrades have been deferred for
 * `maxDeferHours` in a row, so that a court whose event never ends cannot hold the venue on an
 * old version forever. A bridge that does not run has nothing to interrupt. One that runs but
 * does not answer cannot be judged: that defers too, within the same limit.
 */
export const decideUpgradeWindow = ({ daemon, options, now, deferredSince }: WindowInput): WindowVerdict => {
  if (daemon._tag === "NotRunning") {
    return { ok: true, reasons: [], deferredSince: null, summary: `good moment to upgrade: scorebridge is not running (nothing listens at ${daemon.at}), nothing to interrupt` }
  }
  const reasons = daemon._tag === "Answered"
    ? placeReasons(daemon.places, options)
    : [`scorebridge at ${daemon.at} did not answer (${daemon.detail}): cannot tell whether a match is on`]
  if (reasons.length === 0) return { ok: true, reasons, deferredSince: null, summary: `good moment to upgrade: ${checked(options)}` }
  // A clock set back (NTP after a dead RTC battery) must not leave the run starting in the future.
  const since = deferredSince === null || deferredSince > now ? now : deferredSince
  const limitMs = options.maxDeferHours * hourMs
  if (now - since >= limitMs) {
    return {
      ok: true,
      reasons,
      deferredSince: since,
      summary: `upgrading anyway: deferred since ${iso(since)}, ${hours(now - since)}, longer than upgrades.window.maxDeferHours (${options.maxDeferHours} h)`
    }
  }
  return {
    ok: false,
    reasons,
    deferredSince: since,
    summary: `not a good moment to upgrade: deferred since ${iso(since)}; upgrades run anyway from ${iso(since + limitMs)} (upgrades.window.maxDeferHours)`
  }
}
