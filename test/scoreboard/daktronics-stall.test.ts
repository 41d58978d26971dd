import { afterEach, describe, expect, it } from "vitest"
import { protocols } from "../../adapters/registry.ts"
import { scoreFingerprint } from "../../src/scoring/score-change.ts"
import { scoreEntryFor } from "../../src/scoring/score-entry-for.ts"
import { openWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { volleyballFields } from "./consoles/daktronics.ts"
import { rtdFieldConsole } from "./consoles/daktronics-fields.ts"
import { expectDelivered, resources, startBridge, waitForSerialConnects, type WriteTimes } from "./harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { expectedEntries } from "./matches/match.ts"
import { volleyballSetWonAndNextSet } from "./matches/turning-points.ts"
import { volleyballEntry } from "./matches/volleyball-match.ts"
import { sleep } from "../support/sleep.ts"

/**
 * A bridge whose process is held (a busy CPU, a long GC, the machine swapping)
 * while the last frames of a change wait unread in the serial driver. When it
 * runs again, its settle timer is overdue and the waiting bytes are read only
 * after it: a daemon that trusted its timer alone stored the board half-way
 * through the change (a volleyball set won with the points of the set just
 * won shown as the new set's). The held process is a real SIGSTOP of the real
 * daemon, the change a real split write over a pty.
 */

/** The daemon's default settle window for daktronics-rtd at 19200 baud. */
const settleWindowMs = 80

/** The print of the entry a decoder makes of `bytes` after `before` (the boards already shown). */
const entryAfter = (before: ReadonlyArray<Uint8Array>, bytes: Uint8Array): string | undefined => {
  const decoder = protocols["daktronics-rtd"]!.makeDecoder({ sport: "volleyball" } as never)
  const prints = [...before, bytes].flatMap((chunk) => decoder.push(chunk, 0))
    .map((reading) => scoreEntryFor("volleyball", reading))
    .filter((entry) => entry !== undefined)
    .map(scoreFingerprint)
  return prints.at(-1)
}

describe("daktronics-rtd: the daemon's process held in the middle of a change", () => {
  const res = resources()
  afterEach(() => res.release())

  it("stores the change whole, not the frames read before the hold, and stamps it at its first frame", async () => {
    const steps = volleyballSetWonAndNextSet()
    const setWon = steps.findIndex((step) => step.board.period === 2)
    const console = rtdFieldConsole(volleyballFields, "reversed")
    const pty = await startPtyPair(tempDir("stall-pty", res))
    res.defer(() => pty.stop())
    const bridge = await startBridge(res, "volleyball", console as never, { serial: pty.daemonPath }, { process: true })
    await waitForSerialConnects(bridge, 1)
    const writer = openWriter(pty.writerPath)
    res.defer(() => writer.close())
    const pid = bridge.daemon!.pid()!

    const shown: Array<Uint8Array> = []
    const written: WriteTimes = []
    for (const [i, step] of steps.entries()) {
      if (i > 0) await sleep(250)
      const frames = console.frames(step.board)
      written[i] = [Date.now()]
      if (i !== setWon) {
        writer.write(Buffer.concat(frames))
        shown.push(Buffer.concat(frames))
        continue
      }
      // The frames up to the one that starts the new set: the board half-way, a state it never showed.
      const cut = frames.findIndex((_, n) => entryAfter(shown, Buffer.concat(frames.slice(0, n + 1))) !== entryAfter(shown, new Uint8Array()))
      const before = Buffer.concat(frames.slice(0, cut + 1))
      const rest = Buffer.concat(frames.slice(cut + 1))
      expect(rest.length, "frames of the change after the first that changes the score").toBeGreaterThan(0)
      expect(entryAfter(shown, before), "the board after the first part alone is not the board after the change")
        .not.toBe(entryAfter(shown, Buffer.concat(frames)))
      writer.write(before)
      // The daemon reads the first part and holds it; then its process stops, and the rest arrives meanwhile.
      await sleep(20)
      process.kill(pid, "SIGSTOP")
      try {
        writer.write(rest)
        await sleep(settleWindowMs * 3)
      } finally {
        process.kill(pid, "SIGCONT")
      }
      shown.push(Buffer.concat(frames))
    }
    await expectDelivered(bridge, expectedEntries(steps, volleyballEntry), written, 10_000)
  })
})
