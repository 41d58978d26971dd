import type { DecoderStats } from "../../adapters/decoder.ts"
import type { LinkKind } from "../config/scoreboard-link.ts"
import type { LinkRecord } from "./place-tracker.ts"

export type Badge = "LIVE" | "NO DATA" | "DISCONNECTED"

export interface SourceView {
  readonly badge: Badge
  /** One line for a technician: what is wrong and where to look (the link's target is shown beside it). */
  readonly detail: string
}

export interface Thresholds {
  /**
   * A serial scoreboard with no valid frame for this long is NO DATA. Consoles
   * repeat their whole state several times a second (Stramatel every ~100 ms,
   * Daktronics with every clock tick), so seconds of silence mean a fault.
   */
  readonly noDataAfterMs: number
  /** A pending outbox item older than this means delivery is stuck. */
  readonly stuckAfterMs: number
}

export const defaultThresholds: Thresholds = { noDataAfterMs: 10_000, stuckAfterMs: 120_000 }

export interface ScoreboardSignals {
  readonly link: LinkKind
  /** Serial path or MQTT topics. */
  readonly target: string
  readonly record: LinkRecord | undefined
  readonly lastBytesAt: number | null
  readonly lastReadingAt: number | null
  readonly stats: DecoderStats
}

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`

const disconnected = (signals: ScoreboardSignals, now: number): SourceView => {
  const record = signals.record
  if (record === undefined) return { badge: "DISCONNECTED", detail: "not opened yet" }
  const failure = record.lastFailure
  const broker = signals.link === "mqtt" ? `broker ${record.state.target}: ` : ""
  const down = failure === null ? "" : `${failure.text} (down for ${seconds(now - record.since)}`
  if (record.state._tag === "listening") {
    const waiting = `waiting for the console to ${signals.link === "udp" ? "send to" : "connect to"} ${record.state.target}`
    return { badge: "DISCONNECTED", detail: failure === null ? `${waiting}: check the console's network output (this machine's address and port)` : `${down}; ${waiting})` }
  }
  if (failure === null) return { badge: "DISCONNECTED", detail: `${broker}${record.state._tag}…` }
  // A listener's console that went quiet on an open connection: nothing to retry, the console must resume.
  const retrying = record.state._tag === "disconnected" && record.state.retryInMs === 0 ? "" : ", retrying"
  return { badge: "DISCONNECTED", detail: `${broker}${down}${retrying})` }
}

const undecoded = (stats: DecoderStats) =>
  `bytes arrive but nothing decodes (${stats.badFrames} bad frames, ${stats.overlong} overlong, ${stats.skippedBytes} bytes skipped): check the protocol, baud rate and parity`

/**
 * The scoreboard's state as the big badge shows it.
 *
 * - DISCONNECTED: the serial port (or, for MQTT topics, the broker) is not open; a TCP or
 *   UDP listener has no console connected or sending.
 * - NO DATA: open, but no reading decoded for `noDataAfterMs` — either bytes
 *   arrive that do not decode (wrong protocol or line settings), or nothing
 *   arrives at all (console off, wrong output port, broken cable). An MQTT
 *   scoreboard may publish only on change, so there silence is not a fault:
 *   it is NO DATA only before its first message or while messages arrive
 *   that do not decode.
 * - LIVE otherwise.
 */
export const scoreboardView = (signals: ScoreboardSignals, thresholds: Thresholds, now: number): SourceView => {
  const record = signals.record
  if (record?.state._tag !== "connected") return disconnected(signals, now)
  const { lastBytesAt, lastReadingAt } = signals
  const undecodedSinceReading = lastBytesAt !== null && (lastReadingAt === null || lastBytesAt > lastReadingAt)
  if (signals.link === "mqtt") {
    if (lastReadingAt === null) {
      return { badge: "NO DATA", detail: undecodedSinceReading ? undecoded(signals.stats) : "no message yet on its topics" }
    }
    if (undecodedSinceReading && now - lastReadingAt > thresholds.noDataAfterMs) return { badge: "NO DATA", detail: undecoded(signals.stats) }
    return { badge: "LIVE", detail: `last message ${seconds(now - lastReadingAt)} ago` }
  }
  if (lastReadingAt !== null && now - lastReadingAt <= thresholds.noDataAfterMs) {
    return { badge: "LIVE", detail: "frames arriving" }
  }
  if (now - record.since <= thresholds.noDataAfterMs) {
    return { badge: "NO DATA", detail: `${signals.link === "serial" ? "port open" : "connected"}, waiting for the first valid frame` }
  }
  if (undecodedSinceReading && now - lastBytesAt <= thresholds.noDataAfterMs) {
    return { badge: "NO DATA", detail: undecoded(signals.stats) }
  }
  const since = lastBytesAt === null || lastBytesAt < record.since
    ? `since the ${signals.link === "serial" ? "port opened" : "link came up"} ${seconds(now - record.since)} ago`
    : `for ${seconds(now - lastBytesAt)}`
  return { badge: "NO DATA", detail: `no bytes ${since}: check the console is on, its output port and the cable` }
}

/** A button source's link, for places fed only by buttons and for the health reasons. */
export const buttonView = (name: string, record: LinkRecord | undefined, now: number): SourceView => {
  if (record?.state._tag === "connected") return { badge: "LIVE", detail: `button source ${name} connected` }
  const failure = record?.lastFailure
  return {
    badge: "DISCONNECTED",
    detail: failure === null || failure === undefined
      ? `button source ${name}: ${record?.state._tag ?? "not opened yet"}`
      : `button source ${name}: ${failure.text} (down for ${seconds(now - record!.since)})`
  }
}
