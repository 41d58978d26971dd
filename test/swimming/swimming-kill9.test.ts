import { afterEach, describe, expect, it } from "vitest"
import { raceStream } from "../../adapters/colorado-cts/console-model.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter } from "../../scripts/support/pty.ts"
import { sleep } from "../support/sleep.ts"
import { resources, waitForSerialConnects } from "../scoreboard/harness.ts"
import { startPtyBridge } from "../scoreboard/pty-match.ts"
import { outboxByKind } from "../highlights-e2e/support.ts"
import { playPool, poolConsole } from "./pool-console.ts"
import { heatForAKill } from "./races.ts"
import { acceptedFinishClicks, byLane, factsOf, finishMoments, finishOverlay, outboxFinishes, stampErrors, touchToleranceMs, untilFinishesDelivered } from "./support.ts"

/**
 * kill -9 of the daemon process mid-heat, once it had stored three finishes, and a restart while
 * the heat goes on: what it had read is delivered once, nothing twice, and the finishes after
 * the restart, and the one that touched while it was down (still on the board), are delivered too.
 */

const res = resources()
afterEach(() => res.release())

describe("kill -9 of the daemon mid-heat (Colorado console over a pty)", () => {
  it("every finish it had stored delivered once, none doubled, the later ones delivered, all stamped at the touch", async () => {
    const began = Date.now()
    const stream = raceStream(heatForAKill, { seed: 12 })
    const truth = stream.finishes
    expect(truth).toHaveLength(8)
    expect(new Set(truth.map((f) => `${f.event}/${f.heat}`)), "every finish heat 1's, the advance notwithstanding").toEqual(new Set(["12/1"]))
    const { pty, bridge, writer } = await startPtyBridge(res, "swimming", poolConsole, {
      process: true,
      place: { autoHighlights: [{ rule: "finish" }], clicks: { overlay: finishOverlay } }
    })
    const daemon = bridge.daemon!
    const player = playPool(stream, writer)

    // The condition, not a time: the daemon has stored three finish clicks.
    await eventually("three finish clicks in the daemon's outbox", async () =>
      (await outboxFinishes(bridge)).length >= 3 ? true : undefined, { timeoutMs: 30_000, intervalMs: 50 })
    // The cable goes dead with the process: what the console sends meanwhile is lost.
    player.detach()
    writer.close()
    await daemon.kill9()
    const killedAt = Date.now()
    const stored = await outboxFinishes(bridge)
    // The outage lasts past lane 4's touch and its first results on the board: the restarted
    // daemon finds that finish on a board it joins mid-heat, never having seen the lane swim.
    const downTouch = truth.find((f) => f.lane === 4)!
    await sleep(player.origin + downTouch.touchMs + 800 - Date.now())

    // A fresh pty pair: no byte the dead daemon did not read reaches the next one, stamped late.
    await pty.unplug()
    await pty.replug()
    daemon.start()
    await waitForSerialConnects(bridge, 2)
    const again = openWriter(pty.writerPath)
    res.defer(() => again.close())
    player.attach(again)
    const restartedAt = Date.now()
    await player.done
    await untilFinishesDelivered(bridge, truth.length)

    // The kill really was mid-heat: some finishes stored before it, some touches after the restart.
    const touchAt = (lane: number) => player.origin + truth.find((f) => f.lane === lane)!.touchMs
    expect(stored.length).toBeGreaterThanOrEqual(3)
    expect(truth.filter((f) => player.origin + f.touchMs > restartedAt).length, "touches after the restart").toBeGreaterThanOrEqual(3)
    expect(touchAt(downTouch.lane), "lane 4 touched while the daemon was down").toBeGreaterThan(killedAt)
    expect(stored.map((s) => s.finish.lane), "lane 4 not stored before the kill").not.toContain(downTouch.lane)

    const moments = await finishMoments(bridge)
    const lanes = moments.map((f) => f.lane)
    expect(lanes.filter((lane, i) => lanes.indexOf(lane) !== i), "lanes with two finish moments").toEqual([])
    const finishLines = () => bridge.logs.filter((line) => /finish|race/.test(line)).join("\n")
    expect(byLane(moments), `the heat's finishes at the service (daemon's finish lines:\n${finishLines()})`).toEqual(byLane(truth.map(factsOf)))

    const clicks = await acceptedFinishClicks(bridge)
    for (const lane of new Set(clicks.map((c) => c.finish.lane))) {
      expect(new Set(clicks.filter((c) => c.finish.lane === lane).map((c) => c.clickId)).size, `lane ${lane}: one click, not a second one made after the restart`).toBe(1)
    }
    // What it had stored before the kill went out as stored: same finish, same stamp.
    for (const before of stored) {
      expect(clicks.find((c) => c.finish.lane === before.finish.lane), `lane ${before.finish.lane}, stored before the kill`)
        .toMatchObject({ finish: before.finish, timeStamp: before.timeStamp })
      expect(before.timeStamp).toBeLessThan(killedAt)
    }
    const errors = stampErrors(clicks, truth, player.origin)
    expect(errors.filter((e) => !(Math.abs(e.errorMs) <= touchToleranceMs)), `finish clicks over ${touchToleranceMs} ms from the touch`).toEqual([])
    expect(await outboxByKind(bridge), "the pool's outbox").toEqual({ "auto/delivered": truth.length })
    console.info(`swimming kill9: killed ${killedAt - player.origin - stream.startMs} ms after the horn with ${stored.length} stored `
      + `(lanes ${stored.map((s) => s.finish.lane).join(",")}), back ${restartedAt - killedAt} ms later; touches while down: `
      + `${truth.filter((f) => touchAt(f.lane) > killedAt && touchAt(f.lane) <= restartedAt).map((f) => f.lane).join(",") || "none"}; `
      + `stamp errors ${JSON.stringify(errors)}; ${player.figures().lost} chunks lost; run ${Date.now() - began} ms`)
  }, 90_000)
})
