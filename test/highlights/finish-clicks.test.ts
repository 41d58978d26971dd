import { rmSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { protocols } from "../../adapters/registry.ts"
import { LatestBoard } from "../../src/clicks/board-extras.ts"
import { clickSettingsOf } from "../../src/clicks/place-click-settings.ts"
import { handlePress } from "../../src/clicks/press-handler.ts"
import { parseConfig } from "../../src/config/load.ts"
import { Outbox, OutboxItems, type PressIdentities } from "../../src/delivery/outbox.ts"
import type { Finish } from "../../src/domain/race.ts"
import { ActiveEvents } from "../../src/events/active-events.ts"
import { type AutoHighlightSettings, autoHighlightItems } from "../../src/highlights/auto-highlighter.ts"
import { finishHighlights } from "../../src/highlights/finish-moments.ts"
import type { AutoHighlight } from "../../src/highlights/score-moments.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"

/**
 * A finish's click as the daemon stores it, on the real outbox: the place's `clicks.overlay`
 * filled with the swimmer's values, not held, and never merged with or taken back by a press —
 * while a score auto-highlight at the same moment is (the contrast that shows the press looked).
 */

const poolYaml = `
service:
  baseUrl: https://api.example.com
  token: { env: SCOREBRIDGE_TOKEN }
places:
  - key: pool
    sport: swimming
    scoreboard:
      protocol: lines
      serial: { path: /dev/ttyUSB0 }
      options: { delimiter: ",", fields: [home, away, period] }
    autoHighlights: [{ rule: finish, places: 3 }, { rule: score }]
    actions: [{ source: remote, gesture: single, do: highlight }]
    clicks:
      overlay:
        templateSource: https://cdn.example.com/pool/finish.html
        values: { lane: "Lane {{lane}}", place: "{{place}}.", time: "{{time}}", race: "Event {{event}} Heat {{heat}}", who: "{{swimmer}}" }
        widthPercentOfWidth: 30
    teams:
      home: { overlay: { imageSource: "https://cdn.example.com/home.png", heightPercentOfHeight: 10 } }
buttons:
  - { name: remote, type: input-event, device: /dev/input/event3 }
`

process.env["SCOREBRIDGE_TOKEN"] ??= "finish-clicks-token"

const touch = 1_800_000_028_910
const finish: Finish = { lane: 4, place: 1, time: "28.91", timeMs: 28_910, event: 12, heat: 3, at: touch }

const pool = Effect.gen(function*() {
  const { config } = yield* parseConfig(poolYaml, "pool.yaml", protocols)
  const place = config.places[0]!
  const settings = clickSettingsOf(place)
  const autos: AutoHighlightSettings = { rules: place.autoHighlights ?? [], mergeMs: settings.mergeMs, overlayFor: settings.overlayFor }
  return { place, settings, autos }
})

const withOutbox = <A, E>(effect: Effect.Effect<A, E, OutboxItems | PressIdentities | ActiveEvents | LatestBoard>) =>
  Effect.gen(function*() {
    const stateDirectory = tempDir("finish-clicks")
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(stateDirectory, { recursive: true, force: true })))
    yield* TestClock.setTime(touch + 600)
    return yield* effect.pipe(Effect.provide(Layer.mergeAll(Outbox.layer({ stateDirectory }), ActiveEvents.layer, LatestBoard.layer)))
  })

/** The highlights' items, stored as the finish store does. */
const store = (autos: AutoHighlightSettings, highlights: ReadonlyArray<AutoHighlight>) =>
  Effect.gen(function*() {
    const items = yield* autoHighlightItems("pool", autos, highlights, undefined)
    return items.length === 0 ? [] : yield* (yield* OutboxItems).appendAll(items)
  })

const scoreAt = (at: number): AutoHighlight => ({ at, rule: "score", rules: ["score"], team: "home", window: { beforeSeconds: 15, afterSeconds: 5 } })

const press = (settings: ReturnType<typeof clickSettingsOf>, pressedAt: number) =>
  handlePress(settings, { source: "remote", button: "1", gesture: "single", pressedAt }, { do: "highlight", team: "none" })

describe("a finish's click on the real outbox", () => {
  it.effect("carries the place's clicks.overlay filled with lane, place, time, event and heat, and is sent at once", () =>
    withOutbox(Effect.gen(function*() {
      const { autos } = yield* pool
      const [item] = yield* store(autos, finishHighlights([finish], autos.rules, "swimming"))
      expect(item?.kind).toBe("click")
      if (item?.kind !== "click") return
      expect(item.payload.overlays).toEqual([{
        templateSource: "https://cdn.example.com/pool/finish.html",
        values: { lane: "Lane 4", place: "1.", time: "28.91", race: "Event 12 Heat 3", who: "" },
        widthPercentOfWidth: 30
      }])
      expect(item.payload.metadata).toMatchObject({ team: "none", source: "auto", rule: "finish", finish: { lane: 4, place: 1, time: "28.91", event: 12, heat: 3 } })
      expect(item.payload.score).toBeUndefined()
      expect([item.createdAt, item.notBefore]).toEqual([touch, touch])
      // A score auto-highlight at the same place is held for a press, as before.
      const [held] = yield* store(autos, [scoreAt(touch + 100)])
      expect(held!.notBefore - held!.createdAt).toBe(5_000)
    })))

  it.effect("is one item however often the same finish is stored (a retried store)", () =>
    withOutbox(Effect.gen(function*() {
      const { autos } = yield* pool
      const [first] = yield* store(autos, finishHighlights([finish], autos.rules, "swimming"))
      const [again] = yield* store(autos, finishHighlights([{ ...finish }], autos.rules, "swimming"))
      expect(again?.id).toBe(first?.id)
      expect((yield* (yield* OutboxItems).recent("pool", 10)).length).toBe(1)
    })))

  it.effect("is not taken by a press at its touch: the press makes its own click, the finish stays; a score highlight there is merged", () =>
    withOutbox(Effect.gen(function*() {
      const { autos, settings } = yield* pool
      const [finishItem] = yield* store(autos, finishHighlights([finish], autos.rules, "swimming"))
      const [scoreItem] = yield* store(autos, [scoreAt(touch - 50)])
      const result = yield* press(settings, touch + 1_000)
      expect(result._tag).toBe("Queued")
      const items = yield* (yield* OutboxItems).recent("pool", 10)
      const byId = new Map(items.map((item) => [item.id, item]))
      expect(byId.get(finishItem!.id)?.state).toBe("pending")
      expect(byId.get(scoreItem!.id)?.state).toBe("warning")
      expect(items.filter((item) => item.kind === "undo")).toEqual([])
    })))

  it.effect("is made after a press at its touch, which a score highlight there is not", () =>
    withOutbox(Effect.gen(function*() {
      const { autos, settings } = yield* pool
      expect((yield* press(settings, touch - 200))._tag).toBe("Queued")
      expect(yield* store(autos, finishHighlights([finish], autos.rules, "swimming"))).toHaveLength(1)
      expect(yield* store(autos, [scoreAt(touch)])).toEqual([])
    })))

  it.effect("gives a press about no team the place's clicks.overlay, its finish fields empty; a team's press its team's", () =>
    withOutbox(Effect.gen(function*() {
      const { settings } = yield* pool
      const none = yield* press(settings, touch)
      const home = yield* handlePress(settings, { source: "remote", button: "1", gesture: "single", pressedAt: touch + 30_000 }, { do: "highlight", team: "home" })
      const items = yield* (yield* OutboxItems).recent("pool", 10)
      const overlaysOf = (id: number) => {
        const item = items.find((i) => i.id === id)
        return item?.kind === "click" ? item.payload.overlays : undefined
      }
      expect(none._tag === "Queued" ? overlaysOf(none.itemId) : "not queued").toEqual([{
        templateSource: "https://cdn.example.com/pool/finish.html",
        values: { lane: "Lane ", place: ".", time: "", race: "Event  Heat ", who: "" },
        widthPercentOfWidth: 30
      }])
      expect(home._tag === "Queued" ? overlaysOf(home.itemId) : "not queued")
        .toEqual([{ imageSource: "https://cdn.example.com/home.png", heightPercentOfHeight: 10 }])
    })))
})
