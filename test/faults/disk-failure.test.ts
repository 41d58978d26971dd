import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { outboxStates } from "../support/outbox-file.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { mountSlowDisk, slowDiskUnavailable } from "../../scripts/support/slow-disk.ts"
import { checkPresses, eventOf } from "./support/guarantees.ts"
import { primeSession } from "./support/presses.ts"
import { statusOutputs, tokenLeaks } from "./support/token-scan.ts"
import { mqttPlace, remoteTopic, startWorld, type World } from "./support/world.ts"

/**
 * The card fails an outbox fsync (EIO): the daemon must say so in one fatal line and exit 74
 * (EX_IOERR) for systemd to start it again, and the press whose append waited for that fsync
 * must stay unacknowledged, so that the broker hands it to the next run. The state directory is
 * on the lazy FUSE mount (scripts/support/slow-disk.ts): there the daemon's own fdatasync of the
 * write-ahead log gets the EIO (ext4 over a loop device would turn it into journal errors), and
 * a power cut once it has exited throws away what the failed fsync did not store, as a dying
 * card may. A daemon that acknowledged a press before its fsync succeeded loses it in that cut; one
 * that ignores the failure goes on running with writes it cannot trust.
 */
/** The release takes ~4 s (the broker's goodbye waits 2 s for the unacknowledged press); the daemon's own deadline is 10 s. */
const exitLimitMs = 9_000
const healthyPresses = 3
const failingPresses = 2

const unavailable = slowDiskUnavailable()

// Released in reverse: the daemon first (release kills it), then the disk it had open, then its directory.
const res = resources()
afterEach(() => res.release())

const press = (w: World) => w.publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single", linkquality: 120 }), { qos: 1 })

const moments = async (w: World) => (await eventOf(w, mqttPlace)).moments.length

describe.skipIf(unavailable !== undefined)("the disk fails an outbox fsync", () => {
  it(`exits 74 after a fatal line; the next run on a healthy disk delivers every press once`, async () => {
    const disk = await mountSlowDisk({ directory: tempDir("disk-failure", res), device: "fuse", lazy: true, fsyncDelayMs: 0 })
    res.defer(() => disk.unmount())
    const stateDirectory = join(disk.path, "state")
    mkdirSync(stateDirectory)
    const world = await startWorld("disk-failure", { stateDirectory })
    res.defer(() => world.release())
    const { daemon } = world
    const withTail = (error: Error): never => {
      throw new Error(`${error.message}\n${daemon.tail()}`)
    }
    const published = [await primeSession(world)]
    for (let i = 0; i < healthyPresses; i++) {
      published.push(Date.now())
      await press(world)
    }
    await eventually(`${published.length} moments on a healthy disk`, async () =>
      (await moments(world)) === published.length ? true : undefined, { timeoutMs: 10_000, intervalMs: 50 })
    await eventually("the healthy presses to be settled in the outbox", () =>
      (outboxStates(stateDirectory)["pending"] ?? 0) === 0 ? true : undefined, { timeoutMs: 10_000, intervalMs: 50 })

    disk.setFsyncFailing(true)
    const fromLog = daemon.logs().length
    const failedAt = Date.now()
    for (let i = 0; i < failingPresses; i++) {
      published.push(Date.now())
      // The broker's acknowledgement to the publisher: from now on it owes the press to the daemon's session.
      await press(world)
    }
    const fatal = await eventually("a fatal line naming the disk failure", () =>
      daemon.logs().slice(fromLog).find((l) => l.level === 60 && /the disk failed to store outbox writes/.test(l.msg)), { timeoutMs: exitLimitMs, intervalMs: 25 })
      .catch(withTail)
    await eventually("the daemon to exit", () => (daemon.alive() ? undefined : true), { timeoutMs: exitLimitMs, intervalMs: 25 })
      .catch(withTail)
    const exit = daemon.exits().at(-1)!
    const exitMs = exit.at - failedAt
    const failedFsyncs = disk.fsyncs().filter((f) => f.failed === true)
    process.stderr.write(
      `disk-failure: fatal line ${fatal.seenAt - failedAt} ms and exit (code ${exit.code}, signal ${exit.signal}) ${exitMs} ms after failing began; ` +
        `failed fsyncs ${failedFsyncs.map((f) => `${f.path} at +${Math.round(f.startedAt - failedAt)} ms`).join(", ")}\n`
    )
    expect(failedFsyncs.map((f) => f.path), "fsyncs that failed").toContain("/state/outbox.sqlite-wal")
    expect(fatal.msg, "the failure's log line names the errno").toMatch(/EIO/)
    expect(fatal.msg).not.toContain(world.token)
    expect(daemon.logs().slice(fromLog).filter((l) => l.level >= 60), "fatal lines").toHaveLength(1)
    expect({ code: exit.code, signal: exit.signal, asked: exit.asked }, daemon.tail()).toEqual({ code: 74, signal: null, asked: false })
    expect(exitMs, "from the first failing press to the exit").toBeLessThan(exitLimitMs)

    // What the failed fsyncs were to store never reached the card; then it is replaced, as systemd restarts the daemon.
    await disk.powerCut()
    disk.setFsyncFailing(false)
    const fromRestart = daemon.logs().length
    daemon.start()
    await daemon.waitForLog(/MQTT connected/, { from: fromRestart })
    // Every item settled (delivered or missed: none pending, in flight or in doubt): nothing is sent again, so a
    // press redelivered or stored twice shows now.
    const settled = () => Object.keys(outboxStates(stateDirectory)).every((state) => state === "delivered" || state === "missed")
    await eventually(`${published.length} moments and every item settled`, async () =>
      (await moments(world)) >= published.length && settled() ? true : undefined,
      { timeoutMs: 15_000, intervalMs: 100 }).catch(() => undefined)

    const presses = await checkPresses(world, mqttPlace, published)
    expect(presses.problems, daemon.tail()).toEqual([])
    const states = outboxStates(stateDirectory)
    expect(Object.keys(states).filter((s) => s !== "delivered" && s !== "missed"), `outbox items not delivered: ${JSON.stringify(states)}`).toEqual([])
    expect(daemon.alive(), `the restarted daemon is still running\n${daemon.tail()}`).toBe(true)
    expect(daemon.crashes(), "runs that ended on their own: the failed disk's only").toBe(1)
    expect(daemon.logs().slice(fromRestart).filter((l) => l.level >= 50).map((l) => l.msg), "errors after the restart").toEqual([])
    expect(tokenLeaks(world.dir, world.token, await statusOutputs(world.statusUrl)).concat(tokenLeaks(stateDirectory, world.token)), "places where the token was found")
      .toEqual([])
  }, 60_000)
})
