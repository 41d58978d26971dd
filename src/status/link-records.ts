import type { LinkState } from "../domain/received.ts"
import { type LinkRecord, nextLink } from "./place-tracker.ts"

/**
 * The links that are not a place's scoreboard, as last reported: each button source's own link,
 * and the broker's, which also stands for every button source and scoreboard over MQTT.
 */
export class LinkRecords {
  readonly buttons = new Map<string, LinkRecord>()
  mqtt: LinkRecord | undefined
  private readonly overMqtt: ReadonlySet<string>

  constructor(buttons: ReadonlyArray<{ readonly name: string; readonly overMqtt: boolean }>) {
    this.overMqtt = new Set(buttons.filter((b) => b.overMqtt).map((b) => b.name))
  }

  /** The record a button source's liveness is read from: the broker's for a source over MQTT. */
  buttonRecord(name: string): LinkRecord | undefined {
    return this.overMqtt.has(name) ? this.mqtt : this.buttons.get(name)
  }
}

/** A link's next record, and, when it came up or went down, which (counted on /metrics). */
export const linkChange = (before: LinkRecord | undefined, state: LinkState, at: number) => {
  const wasUp = before?.state._tag === "connected"
  const isUp = state._tag === "connected"
  return { after: nextLink(before, state, at), upNow: wasUp === isUp ? undefined : isUp }
}
