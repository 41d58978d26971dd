import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import { type ModelFinish, type ModelStream, receivedChunks } from "../../adapters/colorado-cts/console-model.ts"
import type { FinishFacts } from "../../src/domain/race.ts"
import { captureLine } from "../../src/replay/capture-format.ts"
import type { ReplayRecord } from "../../src/replay/replay.ts"
import type { RecordedRequest } from "../../simulator/control-client.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import type { Bridge } from "../scoreboard/harness.ts"
import { outboxItems } from "../highlights-e2e/support.ts"

/**
 * What the swimming end-to-end tests check against the console model's truth: the finish clicks
 * the simulator got (or the outbox holds), and `scorebridge replay` of the same bytes.
 */

/** How far a finish click's stamp may be from the model's touch (the 0.15 s). */
export const touchToleranceMs = 150

export interface FinishClick {
  /** When the simulator received it. */
  readonly at: number
  readonly timeStamp: number
  readonly startTime: number
  readonly endTime: number
  readonly clickId: string
  readonly finish: FinishFacts
  readonly body: Readonly<Record<string, unknown>>
}

/** The place's clicks.overlay: every finish value in it, so a wrong or empty one shows. */
export const finishOverlay = {
  templateSource: "https://cdn.example.com/pool/finish.html",
  values: { lane: "Lane {{lane}}", place: "{{place}}", time: "{{time}}", race: "Event {{event}} Heat {{heat}}" },
  widthPercentOfWidth: 30,
  position: { horizontal: "left", vertical: "bottom" }
} as const

/** The overlay's values filled for `finish`, written out independently of the daemon's filler. */
export const filledValues = (finish: ModelFinish) => ({
  lane: `Lane ${finish.lane}`,
  place: String(finish.place),
  time: finish.time,
  race: `Event ${finish.event} Heat ${finish.heat}`
})

export const factsOf = (finish: ModelFinish): FinishFacts =>
  ({ lane: finish.lane, place: finish.place, time: finish.time, event: finish.event, heat: finish.heat })

type ClickBody = { timeStamp: number; startTime: number; endTime: number; metadata: { clickId: string; rule?: string; finish?: FinishFacts } }

const isFinishBody = (body: unknown): body is ClickBody & { metadata: { finish: FinishFacts } } =>
  (body as ClickBody | null)?.metadata?.rule === "finish" && (body as ClickBody).metadata.finish !== undefined

const finishClickOf = (r: RecordedRequest): FinishClick => {
  const body = r.body as ClickBody & { metadata: { finish: FinishFacts } }
  return {
    at: r.at,
    timeStamp: body.timeStamp,
    startTime: body.startTime,
    endTime: body.endTime,
    clickId: body.metadata.clickId,
    finish: body.metadata.finish,
    body: r.body as Readonly<Record<string, unknown>>
  }
}

/** Every click request of the running event, any rule, any answer. */
export const allClickRequests = (bridge: Bridge) =>
  bridge.control.requests({ method: "POST", pathPrefix: `/public/events/${bridge.eventKey}/clicks` })

/** The finish clicks the simulator accepted, by stamp. */
export const acceptedFinishClicks = async (bridge: Bridge): Promise<Array<FinishClick>> =>
  (await allClickRequests(bridge)).filter((r) => r.status === 200 && isFinishBody(r.body)).map(finishClickOf)
    .sort((a, b) => a.timeStamp - b.timeStamp)

/** Score entry requests for the place, live or backlog, whatever the answer. */
export const scoreRequests = async (bridge: Bridge) => [
  ...(await bridge.control.requests({ method: "POST", pathPrefix: `/public/places/${bridge.place}/score` })),
  ...(await bridge.control.requests({ method: "POST", pathPrefix: `/public/events/${bridge.eventKey}/score` }))
]

/** The finish clicks the event holds as moments (a click resent after a kill and reconciled is one moment). */
export const finishMoments = async (bridge: Bridge): Promise<Array<FinishFacts>> => {
  const event = (await bridge.control.state()).events.find((e) => e.key === bridge.eventKey)
  if (event === undefined) throw new Error(`no event ${bridge.eventKey} at the simulator`)
  return event.moments.flatMap((m) => {
    const metadata = m.metadata as { rule?: string; finish?: FinishFacts } | undefined
    return metadata?.rule === "finish" && metadata.finish !== undefined ? [metadata.finish] : []
  })
}

/** The finish clicks in the place's outbox (stored by the daemon, delivered or not), with their stamps. */
export const outboxFinishes = async (bridge: Bridge): Promise<Array<{ readonly timeStamp: number; readonly finish: FinishFacts }>> =>
  (await outboxItems(bridge)).flatMap((item) =>
    item.kind === "click" && isFinishBody(item.payload) ? [{ timeStamp: item.payload.timeStamp, finish: item.payload.metadata.finish }] : []
  )

/**
 * Waits (bounded) until the simulator accepted `count` finish clicks and nothing is pending in the
 * outbox. Never throws: the comparisons that follow say what is missing or extra.
 */
export const untilFinishesDelivered = (bridge: Bridge, count: number, timeoutMs = 15_000) =>
  eventually("every finish click at the simulator and the outbox drained", async () => {
    if ((await acceptedFinishClicks(bridge)).length < count) return undefined
    return (await outboxItems(bridge)).some((i) => i.state === "pending") ? undefined : true
  }, { timeoutMs, intervalMs: 100 }).catch(() => undefined)

/** Sorted by lane, for comparing finishes whatever order they came in. */
export const byLane = <A extends { readonly lane: number }>(items: ReadonlyArray<A>) => [...items].sort((a, b) => a.lane - b.lane)

/** Each click's stamp minus its lane's model touch (wall clock: `origin + touchMs`), in ms. */
export const stampErrors = (clicks: ReadonlyArray<FinishClick>, truth: ReadonlyArray<ModelFinish>, origin: number) =>
  clicks.map((click) => {
    const finish = truth.find((f) => f.lane === click.finish.lane)
    return { lane: click.finish.lane, errorMs: finish === undefined ? Number.NaN : click.timeStamp - (origin + finish.touchMs) }
  })

/**
 * Exactly the model's finishes, once each, with the settled lane, place, time and the race's
 * event and heat; each stamped within `touchToleranceMs` of its touch. Returns the stamp errors.
 */
export const expectFinishClicks = (clicks: ReadonlyArray<FinishClick>, truth: ReadonlyArray<ModelFinish>, origin: number) => {
  const ids = clicks.map((c) => c.clickId)
  expect(new Set(ids).size, `click ids ${JSON.stringify(ids)}`).toBe(ids.length)
  expect(byLane(clicks.map((c) => c.finish)), "finishes at the simulator (by lane)").toEqual(byLane(truth.map(factsOf)))
  const errors = stampErrors(clicks, truth, origin)
  expect(errors.filter((e) => !(Math.abs(e.errorMs) <= touchToleranceMs)), `finish clicks stamped over ${touchToleranceMs} ms from the touch`)
    .toEqual([])
  return errors
}

/** The stream as `scorebridge capture` would have written it, received at `origin + atMs`. */
export const writeCapture = (dir: string, stream: ModelStream, origin: number): string => {
  const file = join(dir, "pool-race.ndjson")
  // Whole ms, as `scorebridge capture` stamps them (the model's byte times are fractions of one).
  writeFileSync(file, receivedChunks(stream, origin).map((chunk) => captureLine({ ...chunk, receivedAt: Math.round(chunk.receivedAt) })).join(""))
  return file
}

/** `scorebridge replay --protocol colorado-cts --sport swimming --auto-highlights [finish] FILE` as a process. */
export const replayFinishes = async (file: string) => {
  const run = await runScorebridge("replay", [
    "--protocol", "colorado-cts", "--sport", "swimming", "--auto-highlights", JSON.stringify([{ rule: "finish" }]), file
  ], {}, 30_000)
  const records = run.stdout.trimEnd().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as ReplayRecord)
  const highlights = records.filter((r) => r.type === "highlight")
  return { run, records, highlights, finishes: highlights.flatMap((h) => (h.finish === undefined ? [] : [{ at: h.at, finish: h.finish }])) }
}
