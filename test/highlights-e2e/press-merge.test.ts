import { afterEach, describe, expect, it } from "vitest"
import { nextClientId, startBroker } from "../clicks-e2e/harness.ts"
import { daktronicsBasketball } from "../scoreboard/consoles/daktronics.ts"
import { type Bridge, resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import type { BasketballBoard } from "../scoreboard/matches/basketball-quarter.ts"
import { startPtyBridge } from "../scoreboard/pty-match.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { sleep } from "../support/sleep.ts"
import { acceptedClicks, acceptedScores, clickRequests, outboxByKind, outboxItems, untilLogged } from "./support.ts"

/**
 * A press and an auto-highlight of the same moment make one click, the press's: a button over
 * real mosquitto, a Daktronics console over a pty, the daemon in this process. Rule: three-pointers
 * (`score`, atLeast 3); `clicks.mergeSeconds` left at its default, 5 s.
 */

const mergeMs = 5_000
const topic = "zigbee2mqtt/court-remote"
const board = (home: number, away: number): BasketballBoard => ({ clock: "08:00", home, away, period: 1 })

const setup = async (res: ReturnType<typeof resources>) => {
  const dir = tempDir("highlights-merge", res)
  const broker = await startBroker(res, dir)
  const console = daktronicsBasketball()
  const { bridge, writer } = await startPtyBridge(res, "basketball", console as never, {
    config: {
      mqtt: { url: broker.mosquitto.url, clientId: nextClientId("daemon") },
      buttons: [{ name: "remote", type: "zigbee2mqtt", mqtt: { topics: [topic] } }]
    },
    place: {
      autoHighlights: [{ rule: "score", atLeast: 3 }],
      actions: [
        { source: "remote", button: 1, gesture: "single", do: "highlight", team: "home" },
        { source: "remote", gesture: "hold", do: "undo" }
      ]
    }
  })
  const publish = (action: string) => broker.peer.publishAsync(topic, JSON.stringify({ action }), { qos: 1 })
  // The subscription is live once a hold (undo, with nothing made yet) is answered in the log.
  await eventually("the daemon to hear the remote", async () => {
    await publish("hold")
    await sleep(100)
    return bridge.logs.some((line) => line.includes("nothing to undo")) ? true : undefined
  }, { timeoutMs: 8_000 })
  const show = (b: BasketballBoard) => {
    const at = Date.now()
    writer.write(console.encode(b))
    return at
  }
  show(board(0, 0))
  await eventually("the first entry at the simulator", async () => ((await acceptedScores(bridge)).length === 1 ? true : undefined))
  /** Presses button 1; resolves with the press's click item id once the daemon stored it. */
  const press = async () => {
    const before = bridge.logs.filter((line) => line.includes("single on remote/1 → highlight #")).length
    const at = Date.now()
    await publish("single")
    const lines = await untilLogged(bridge, "single on remote/1 → highlight #", before + 1)
    return { at, itemId: Number(/highlight #(\d+)/u.exec(lines[before]!)![1]) }
  }
  return { bridge, show, press, publish }
}

const autoQueued = async (bridge: Bridge) => {
  const [line] = await untilLogged(bridge, "score auto-highlight #")
  return Number(/auto-highlight #(\d+) queued/u.exec(line!)![1])
}

const sources = async (bridge: Bridge) => (await clickRequests(bridge)).map((c) => c.metadata.source)

/**
 * Once the auto-highlight's hold is over (`holdEndsAt`), the board changes by one point (no
 * auto-highlight) and its entry is awaited, stored and delivered: an auto-highlight that was due
 * would have gone out before it, so what the simulator holds then is final.
 */
const laterEntryDelivered = async (bridge: Bridge, show: (b: BasketballBoard) => number, holdEndsAt: number) => {
  await sleep(holdEndsAt - Date.now())
  show(board(4, 0))
  await eventually("the later entry delivered", async () => ((await outboxByKind(bridge))["score/delivered"] === 3 ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 })
}

describe("a press and an auto-highlight of the same moment (mosquitto, pty, simulator)", () => {
  const res = resources()
  afterEach(() => res.release())

  it("a press 1.5 s after a three-pointer's entry: one click, the press's; the auto is merged, never sent, and the log says so", async () => {
    const { bridge, show, press } = await setup(res)
    const wroteAt = show(board(3, 0))
    const autoId = await autoQueued(bridge)
    await sleep(wroteAt + 1_500 - Date.now())
    const pressed = await press()
    const [merged] = await untilLogged(bridge, `press click #${pressed.itemId} replaces auto-highlight #${autoId}`)
    expect(merged).toContain("which is not sent")

    const auto = (await outboxItems(bridge)).find((item) => item.id === autoId)!
    expect({ state: auto.state, result: auto.result, sentAt: auto.sentAt }).toEqual({ state: "warning", result: { mergedInto: pressed.itemId }, sentAt: null })
    await laterEntryDelivered(bridge, show, wroteAt + mergeMs + 500)
    const clicks = await acceptedClicks(bridge)
    expect(clicks.map((c) => c.metadata), "clicks at the simulator").toEqual([
      { clickId: expect.any(String), team: "home", source: "remote", button: "1", gesture: "single" }
    ])
    expect(clicks[0]!.timeStamp).toBeGreaterThanOrEqual(pressed.at)
    expect(await sources(bridge), "click requests of any outcome").toEqual(["remote"])
    expect(await outboxByKind(bridge)).toEqual({ "score/delivered": 3, "auto/warning": 1, "click/delivered": 1 })
  })

  it("a press 1.5 s before a three-pointer: no auto-highlight is made, the log names the press it merged into", async () => {
    const { bridge, show, press } = await setup(res)
    const pressed = await press()
    await sleep(pressed.at + 1_500 - Date.now())
    const wroteAt = show(board(3, 0))
    const [merged] = await untilLogged(bridge, `merged into press click #${pressed.itemId}`)
    expect(merged).toMatch(/score auto-highlight \(home\) at .* merged into press click/u)
    await eventually("the three-pointer's entry at the simulator", async () => ((await acceptedScores(bridge)).length === 2 ? true : undefined))
    await laterEntryDelivered(bridge, show, wroteAt + mergeMs + 500)
    expect((await acceptedClicks(bridge)).map((c) => c.metadata.source)).toEqual(["remote"])
    expect(await sources(bridge), "click requests of any outcome").toEqual(["remote"])
    expect(await outboxByKind(bridge)).toEqual({ "score/delivered": 3, "click/delivered": 1 })
  })

  it("a press 10 s after a three-pointer: two clicks, the auto's held 5 s for a press and stamped at its entry", async () => {
    const { bridge, show, press } = await setup(res)
    const wroteAt = show(board(3, 0))
    await autoQueued(bridge)
    const [auto] = await eventually("the auto-highlight at the simulator", async () => {
      const clicks = await acceptedClicks(bridge)
      return clicks.length > 0 ? clicks : undefined
    }, { timeoutMs: mergeMs + 3_000, intervalMs: 50 })
    const entry = (await acceptedScores(bridge))[1]!.body
    expect(auto!.metadata).toEqual({ clickId: expect.any(String), team: "home", source: "auto", rule: "score" })
    expect(auto!.timeStamp).toBe(entry.timeStamp)
    expect(auto!.at - entry.timeStamp, "ms from the entry's stamp to the auto at the simulator").toBeGreaterThanOrEqual(mergeMs)

    await sleep(wroteAt + 10_000 - Date.now())
    await press()
    const clicks = await eventually("the press's click too", async () => {
      const clicks = await acceptedClicks(bridge)
      return clicks.length >= 2 ? clicks : undefined
    })
    expect(clicks.map((c) => c.metadata.source)).toEqual(["auto", "remote"])
    await eventually("the press's click settled", async () => ((await outboxByKind(bridge))["click/delivered"] === 1 ? true : undefined))
    expect(await outboxByKind(bridge)).toEqual({ "score/delivered": 2, "auto/delivered": 1, "click/delivered": 1 })
    expect(bridge.logs.filter((line) => /replaces auto-highlight|merged into press/u.test(line))).toEqual([])
  })

  it("undo takes back the last highlight when a rule made it: the auto-highlight's moment is deleted", async () => {
    const { bridge, show, publish } = await setup(res)
    show(board(3, 0))
    const autoId = await autoQueued(bridge)
    const delivered = await eventually("the auto-highlight delivered", async () => {
      const item = (await outboxItems(bridge)).find((i) => i.id === autoId)
      return item?.state === "delivered" ? item : undefined
    }, { timeoutMs: mergeMs + 5_000, intervalMs: 100 })
    const momentKey = (delivered.result as { momentKey: string }).momentKey
    await publish("hold")
    await eventually("the auto-highlight's moment deleted at the simulator", async () => {
      const requests = await bridge.control.requests()
      return requests.some((r) => r.method === "DELETE" && r.path.endsWith(`/moments/${momentKey}`) && r.status !== null && r.status < 300) ? true : undefined
    }, { timeoutMs: 5_000, intervalMs: 100 })
    const undo = (await outboxItems(bridge)).find((i) => i.kind === "undo")!
    expect({ payload: undo.payload, state: undo.state }).toEqual({ payload: { clickItemId: autoId }, state: "delivered" })
  })
})
