import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { clockLabel, venueTimeWords, venueTimeZone } from "../../src/timeline/time-ticks.ts"
import { venueTime } from "../support/venue-zone.ts"

/**
 * Each Intl.DateTimeFormat holds ~25 kB of ICU objects outside V8's heap, freed only when a major
 * GC finalizes it. Made per label (every tick and highlight of a timeline, every status.json), they
 * grew the daemon's glibc heap while the status page was open, and the holes the collector left
 * stayed resident (the bench's backlog phase: RSS 116 MB against 86). The labels keep one formatter
 * per style and zone, and still follow the process's zone when TZ is assigned.
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
  it("reuse their formatters: a thousand labels in two styles and zones, the zone and dates make one formatter per style and zone", () => {
    // A zone no other test uses, so the formatters are made here, not found from an earlier file.
    const made = inZone("Pacific/Chatham", () =>
      formattersMade(() => {
        for (let k = 0; k < 250; k++) {
          clockLabel(at + k * 1000, true)
          clockLabel(at + k * 1000, false)
          clockLabel(at + k * 1000, true, "Asia/Kathmandu")
          venueTimeWords(at + k * 1000, "always")
          venueTimeZone()
        }
      }))
    // clock with and without seconds in the own zone, with seconds in the named one, the date, the zone.
    assert.isAtMost(made, 5)
  })

  it("follow the process's zone when TZ is assigned, as they did when each label made its own formatter", () => {
    for (const zone of ["Australia/Adelaide", "America/Los_Angeles", "Australia/Adelaide"]) {
      inZone(zone, () => {
        assert.strictEqual(venueTimeZone(), zone)
        assert.strictEqual(clockLabel(at, true), venueTime(at, zone))
        assert.strictEqual(clockLabel(at, false), venueTime(at, zone, false))
        assert.match(venueTimeWords(at, "always"), new RegExp(`^${venueTime(at, zone)} on 2026-11-2[78]$`))
      })
    }
    assert.strictEqual(clockLabel(at, true, "Asia/Kathmandu"), venueTime(at, "Asia/Kathmandu"))
  })

  it("leave the daemon's malloc heap as it was after 5,000 labels (a new formatter per label grew it by ~100 MB)", () => {
    // A process of its own with the daemon's heap flags and malloc settings (bin/scorebridge; not
    // --jitless, which leaves no WebAssembly to strip the module's types): the growth of its main
    // heap ([heap] in smaps) is what RSS showed.
    const script = `
      import { readFileSync } from "node:fs"
      import { clockLabel } from ${JSON.stringify(join(import.meta.dirname, "../../src/timeline/time-ticks.ts"))}
      const heapKb = () => { const s = readFileSync("/proc/self/smaps", "utf8"); const i = s.indexOf("[heap]"); return i < 0 ? 0 : Number(/Rss:\\s+(\\d+)/.exec(s.slice(i))[1]) }
      for (let k = 0; k < 200; k++) clockLabel(${at} + k, true)
      const before = heapKb()
      for (let k = 0; k < 5000; k++) clockLabel(${at} + k * 1000, k % 2 === 0)
      process.stdout.write(String(heapKb() - before))
    `
    const grownKb = Number(execFileSync(process.execPath, ["--max-semi-space-size=1", "--max-old-space-size=384", "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "32768" },
      timeout: 20_000
    }))
    assert.isBelow(grownKb, 2048, `the main heap grew ${grownKb} kB over 5,000 labels`)
  })
})
