import { Effect } from "effect"
import { expect } from "vitest"
import { Outbox, type OutboxItem } from "../../src/delivery/outbox.ts"
import { wholeOutbox } from "../support/whole-outbox.ts"
import type { RecordedRequest } from "../../simulator/control-client.ts"
import type { SimulatedConsole } from "../scoreboard/consoles/console.ts"
import { type Bridge, stampToleranceMs, type WriteTimes } from "../scoreboard/harness.ts"
import type { Expected, Step } from "../scoreboard/matches/match.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { type PlayClock, wallClock } from "../scoreboard/play-clock.ts"

/**
 * Shared pieces of the auto-highlight end-to-end tests (each starts its bridge with
 * test/scoreboard/pty-match.ts): what the simulator and the outbox hold after.
 */

export interface ClickMetadata {
  readonly clickId: string
  readonly team: string
  readonly source: string
  readonly rule?: string
  readonly rules?: ReadonlyArray<string>
  readonly button?: string
  readonly gesture?: string
}

export interface ReceivedClick {
  readonly at: number
  readonly status: number | null
  readonly timeStamp: number
  readonly startTime: number
  readonly endTime: number
  readonly score: Readonly<Record<string, unknown>> | undefined
  readonly metadata: ClickMetadata
}

const clickOf = (r: RecordedRequest): ReceivedClick => {
  const body = r.body as { timeStamp: number; startTime: number; endTime: number; score?: Record<string, unknown>; metadata: ClickMetadata }
  return { at: r.at, status: r.status, timeStamp: body.timeStamp, startTime: body.startTime, endTime: body.endTime, score: body.score, metadata: body.metadata }
}

/** Every click request the simulator saw for the running event, answered or not, in arrival order. */
export const clickRequests = async (bridge: Bridge): Promise<Array<ReceivedClick>> =>
  (await bridge.control.requests({ method: "POST", pathPrefix: `/public/events/${bridge.eventKey}/clicks` })).map(clickOf)

/** The clicks the simulator accepted (200). */
export const acceptedClicks = async (bridge: Bridge): Promise<Array<ReceivedClick>> =>
  (await clickRequests(bridge)).filter((c) => c.status === 200)

export interface ReceivedScore {
  readonly at: number
  readonly body: Readonly<Record<string, unknown>> & { readonly timeStamp: number }
  readonly eventKey: unknown
}

/**
 * Score entries the simulator accepted for the place, in arrival order: live ones on the place's
 * endpoint, and a backlog sent to the event's own (see src/delivery: entries older than the
 * service takes on the place's endpoint go to the event they were stamped in).
 */
export const acceptedScores = async (bridge: Bridge): Promise<Array<ReceivedScore>> => {
  const live = await bridge.control.requests({ method: "POST", pathPrefix: `/public/places/${bridge.place}/score`, status: 200 })
  const backlog = await bridge.control.requests({ method: "POST", pathPrefix: `/public/events/${bridge.eventKey}/score`, status: 200 })
  return [...live.map((r) => ({ r, eventKey: (r.response as { eventKey?: unknown } | null)?.eventKey })), ...backlog.map((r) => ({ r, eventKey: bridge.eventKey }))]
    .sort((a, b) => a.r.seq - b.r.seq)
    .map(({ r, eventKey }) => ({ at: r.at, body: r.body as ReceivedScore["body"], eventKey }))
}

/** The place's outbox items, newest first. */
export const outboxItems = (bridge: Bridge, limit = 1_000): Promise<ReadonlyArray<OutboxItem>> =>
  bridge.readOutbox(Effect.gen(function*() {
    return yield* (yield* wholeOutbox).recent(bridge.place, limit)
  }))

export const isAuto = (item: OutboxItem) =>
  item.kind === "click" && (item.payload as { metadata?: { source?: unknown } }).metadata?.source === "auto"

/** Outbox items of the place by `<kind>/<state>`, autos counted as kind `auto`. */
export const outboxByKind = async (bridge: Bridge): Promise<Record<string, number>> => {
  const byKind: Record<string, number> = {}
  for (const item of await outboxItems(bridge)) {
    const key = `${isAuto(item) ? "auto" : item.kind}/${item.state}`
    byKind[key] = (byKind[key] ?? 0) + 1
  }
  return byKind
}

export const pendingCount = async (bridge: Bridge) => (await outboxItems(bridge)).filter((i) => i.state === "pending").length

/** Waits (bounded) until nothing in the place's outbox is pending. */
export const untilDrained = (bridge: Bridge, timeoutMs = 20_000) =>
  eventually("the place's outbox to drain", async () => ((await pendingCount(bridge)) === 0 ? true : undefined), {
    timeoutMs,
    intervalMs: 100
  })

/** Waits (bounded) for a log line containing `text` (at least `count` of them); returns the matching lines. */
export const untilLogged = (bridge: Bridge, text: string, count = 1, timeoutMs = 8_000) =>
  eventually(`the daemon to log "${text}"`, () => {
    const lines = bridge.logs.filter((line) => line.includes(text))
    return lines.length >= count ? lines : undefined
  }, { timeoutMs, intervalMs: 20 })

/**
 * The scores the simulator accepted are exactly `expected`, in order, on the running event, and
 * each is stamped at the write of the board that first showed it: none before, none over 1 s
 * after, and at least 90 % within the harness's tolerance (see stampToleranceMs in the harness).
 */
export const expectScores = <E>(received: ReadonlyArray<ReceivedScore>, expected: ReadonlyArray<Expected<E>>, written: WriteTimes, eventKey: string) => {
  expect(received.map(({ body: { timeStamp: _t, ...entry } }) => entry), "score entries at the simulator").toEqual(expected.map((e) => e.entry))
  expect(received.filter((r) => r.eventKey !== eventKey), "entries not on the running event").toEqual([])
  const lags = expected.map(({ step }, i) => lagOf(received[i]!.body.timeStamp, written[step] ?? []))
  expect(lags.filter((lag) => !(lag >= 0 && lag <= 1_000)), "entries stamped before their write or over 1 s after it").toEqual([])
  expect(lags.filter((lag) => lag > stampToleranceMs).length, `entries stamped over ${stampToleranceMs} ms after their write: ${JSON.stringify(lags)}`)
    .toBeLessThanOrEqual(Math.floor(expected.length * 0.1))
}

/** How long after the last write at or before it `stamp` is; NaN when no write precedes it. */
export const lagOf = (stamp: number, writes: ReadonlyArray<number>): number => {
  const before = writes.filter((at) => at <= stamp)
  return before.length === 0 ? Number.NaN : stamp - Math.max(...before)
}

/** Each click id once: no highlight was sent twice. */
export const expectUnique = (clicks: ReadonlyArray<ReceivedClick>) => {
  const ids = clicks.map((c) => c.metadata.clickId)
  expect(new Set(ids).size, `click ids ${JSON.stringify(ids)}`).toBe(ids.length)
}

/**
 * Shows `steps[from, to)` on the console, recording each write's time. A score change follows a
 * longer pause than a clock tick: longer than daktronics-rtd's 80 ms settle window, as real
 * changes are (a change's frames come together; two baskets never do).
 */
export const playSteps = async <B>(
  steps: ReadonlyArray<Step<B>>,
  console: SimulatedConsole<B>,
  write: (bytes: Uint8Array | string) => unknown,
  written: WriteTimes,
  { from = 0, to = steps.length, changeGapMs = 150, tickGapMs = 30, clock = wallClock }: {
    from?: number
    to?: number
    changeGapMs?: number
    tickGapMs?: number
    clock?: PlayClock
  } = {}
): Promise<void> => {
  for (let i = from; i < to; i++) {
    if (i > from) await clock.sleep(steps[i]!.tick ? tickGapMs : changeGapMs)
    const payload = console.encode(steps[i]!.board)
    ;(written[i] ??= []).push(clock.now())
    await write(payload)
  }
}

/**
 * Waits until `count` clicks reached the simulator and no score or auto-highlight is pending.
 * Never throws on timeout: the comparisons that follow say what is missing or extra.
 */
export const untilClicksAndScoresIn = (bridge: Bridge, count: number) =>
  eventually("every auto-highlight at the simulator and the outbox drained", async () => {
    const outbox = await outboxByKind(bridge)
    return (await acceptedClicks(bridge)).length >= count && outbox["score/pending"] === undefined && outbox["auto/pending"] === undefined
      ? true
      : undefined
  }, { timeoutMs: 20_000, intervalMs: 100 }).catch(() => undefined)

/**
 * The clicks at the simulator, by time, checked to be exactly `expected` auto-highlights (rule,
 * every agreeing rule, team) and none twice.
 */
export const expectAutoClicks = async (
  bridge: Bridge,
  expected: ReadonlyArray<{ readonly rule: string; readonly rules: ReadonlyArray<string>; readonly team: string }>
): Promise<Array<ReceivedClick>> => {
  const clicks = (await acceptedClicks(bridge)).sort((a, b) => a.timeStamp - b.timeStamp)
  expectUnique(clicks)
  expect(
    clicks.map((c) => ({ rule: c.metadata.rule, rules: c.metadata.rules ?? [c.metadata.rule], team: c.metadata.team, source: c.metadata.source })),
    `auto-highlights at the simulator (daemon log:\n${bridge.logs.slice(-30).join("\n")})`
  ).toEqual(expected.map((a) => ({ rule: a.rule, rules: a.rules, team: a.team, source: "auto" })))
  return clicks
}
