import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { venueClockAt, venueTimeZone } from "../../src/status/venue-clock.ts"
import { clockLabel, venueTimeWords } from "../../src/timeline/time-ticks.ts"
import { venueTime } from "../support/venue-zone.ts"

/**
 * The clock's labels and the venue's zone cost the daemon no Intl.DateTimeFormat. Its first one
 * makes ICU load its date formats, about 8 MB resident; and one made per label (every tick and
 * highlight of a timeline, every status.json) held ~25 kB of ICU objects each in malloc's memory
 * until a major GC, growing the glibc heap into holes it never gave back (the bench's backlog
 * phase: RSS 116 MB against 86). The labels read Date's local time, in the same zone, and still
 * follow the process's zone when TZ is assigned.
 */

const at = Date.UTC(2026, 10, 27, 13, 45, 30)

/** Runs `body` with TZ set to `zone`, as the mini-PC's TZ would set it, and puts it back. */
const inZone = <A>(zone: string, body: () => A): A => {
  const before = process.env["TZ"]
  process.env["TZ"] = zone
  try {
    return body()
  } finally {
    if (before === undefined) delete process.env["TZ"]
    else process.env["TZ"] = before
  }
}

/** How many Intl.DateTimeFormat `body` makes. */
const formattersMade = (body: () => void): number => {
  const original = Intl.DateTimeFormat
  let made = 0
  Intl.DateTimeFormat = new Proxy(original, {
    construct: (target, args: [string?, Intl.DateTimeFormatOptions?]) => {
      made++
      return new target(...args)
    }
  })
  try {
    body()
  } finally {
    Intl.DateTimeFormat = original
  }
  return made
}

describe("the clock's labels", () => {
  it("in the bridge's zone make no Intl.DateTimeFormat; a named zone makes one per style, kept", () => {
    // A zone no other test uses, so nothing is found from an earlier file.
    const own = inZone("Pacific/Chatham", () =>
      formattersMade(() => {
        for (let k = 0; k < 250; k++) {
          clockLabel(at + k * 1000, true)
          clockLabel(at + k * 1000, false)
          venueTimeWords(at + k * 1000, "always")
          venueClockAt(at + k * 1000)
        }
      }))
    assert.strictEqual(own, 0)
    const named = formattersMade(() => {
      for (let k = 0; k < 250; k++) clockLabel(at + k * 1000, true, "Asia/Kathmandu")
    })
    assert.isAtMost(named, 1)
  })

  it("read the process's zone as Intl does, and follow it when TZ is assigned, across a change to summer time", () => {
    // 2026-03-08 02:00 in Los Angeles and 2026-04-05 03:00 in Adelaide: clocks change in both.
    const around = (utc: number) => Array.from({ length: 60 }, (_, k) => utc - 15 * 3_600_000 + k * 1_031_000)
    const zones = [["Australia/Adelaide", Date.UTC(2026, 3, 4, 16, 30)], ["America/Los_Angeles", Date.UTC(2026, 2, 8, 10)], ["Australia/Adelaide", at]] as const
    for (const [zone, change] of zones) {
      inZone(zone, () => {
        assert.strictEqual(venueTimeZone(), zone)
        assert.strictEqual(venueClockAt(at).timeZone, zone)
        for (const t of [at, ...around(change)]) {
          assert.strictEqual(clockLabel(t, true), venueTime(t, zone), `${zone} at ${new Date(t).toISOString()}`)
          assert.strictEqual(clockLabel(t, false), venueTime(t, zone, false))
        }
        const date = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(at)
        assert.strictEqual(venueTimeWords(at, "always"), `${venueTime(at, zone)} on ${date}`)
      })
    }
    assert.strictEqual(clockLabel(at, true, "Asia/Kathmandu"), venueTime(at, "Asia/Kathmandu"))
  })

  it("take the zone from TZ's zone file path or /etc/localtime, and from Intl when TZ is a POSIX rule", () => {
    assert.strictEqual(inZone(":/usr/share/zoneinfo/Europe/Paris", venueTimeZone), "Europe/Paris")
    assert.strictEqual(inZone(":America/Los_Angeles", venueTimeZone), "America/Los_Angeles")
    const rule = "CET-1CEST,M3.5.0,M10.5.0/3"
    assert.strictEqual(inZone(rule, venueTimeZone), inZone(rule, () => new Intl.DateTimeFormat().resolvedOptions().timeZone))
    const unset = venueTimeZone()
    assert.strictEqual(new Intl.DateTimeFormat("en-GB", { timeZone: unset, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at), clockLabel(at, false))
  })

  it("cost a process with the daemon's heap and malloc settings little memory: 5,000 labels and status clocks (made per label, the formatters grew it by ~140 MB)", () => {
    // A process of its own with bin/scorebridge's heap flags and malloc settings (not --jitless,
    // which leaves no WebAssembly to strip the modules' types); its resident memory from before
    // the first label: ICU's date formats alone would be ~8 MB.
    const module = (path: string) => JSON.stringify(join(import.meta.dirname, "../../src", path))
    const script = `
      import { readFileSync } from "node:fs"
      import { clockLabel } from ${module("timeline/time-ticks.ts")}
      import { venueClockAt } from ${module("status/venue-clock.ts")}
      const rssKb = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1])
      const before = rssKb()
      for (let k = 0; k < 5000; k++) {
        clockLabel(${at} + k * 1000, k % 2 === 0)
        if (k % 50 === 0) venueClockAt(${at} + k * 1000)
      }
      process.stdout.write(String(rssKb() - before))
    `
    const grownKb = Number(execFileSync(process.execPath, ["--max-semi-space-size=1", "--max-old-space-size=384", "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "32768" },
      timeout: 20_000
    }))
    // 16 MB: a formatter per label grows it by ~140 MB; without, 1–4 MB on an idle machine, up to
    // 6 MB while the rest of the suite loads both cores (V8's sweeping threads fall behind).
    assert.isBelow(grownKb, 16_384, `the process grew ${grownKb} kB over 5,000 labels`)
  })
})
