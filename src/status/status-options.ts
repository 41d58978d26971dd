import type { LinkKind } from "../config/scoreboard-link.ts"
import type { Thresholds } from "./liveness.ts"

/** What the status model needs to know of a place in the config. */
export interface StatusPlace {
  readonly key: string
  readonly name?: string
  readonly sport?: string
  readonly scoreboard?: { readonly link: LinkKind; readonly target: string }
  /** Button sources its actions use. */
  readonly buttonSources: ReadonlyArray<string>
}

/** What the status model needs to know of the config (status-layer.ts reads it from the config). */
export interface StatusOptions {
  readonly places: ReadonlyArray<StatusPlace>
  readonly buttons: ReadonlyArray<{ readonly name: string; readonly overMqtt: boolean }>
  /** A broker is configured: its link is shown and feeds MQTT scoreboards and buttons. */
  readonly mqtt: boolean
  readonly thresholds?: Thresholds
  /** Clicks followed until their clips exist (`clips:`); absent or `followUp: false`: nothing about clips is shown. */
  readonly clips?: { readonly followUp: boolean; readonly problemAfterClicks: number }
  /** The fleet's name for this site: a `venue` label on every metric series. */
  readonly venue?: string | undefined
  /** The upgrade guard's record of an automatic rollback (src/upgrade/rollback-record.ts); absent: none is looked for. */
  readonly rollbackFile?: string | undefined
}
