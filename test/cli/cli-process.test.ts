import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { eventually } from "../../scripts/support/eventually.ts"
import { runScorebridge, type ScorebridgeProcess, startScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { clickPayload, scorePayload } from "../support/outbox-payloads.ts"

let sim: ScorebridgeProcess | undefined
afterEach(() => {
  sim?.kill()
  sim = undefined
})

/** Starts `scorebridge sim` as a real process and resolves with the URL it prints. */
const startSim = (args: ReadonlyArray<string>) => {
  const started = startScorebridge(["sim", "--port", "0", ...args])
  sim = started
  return eventually("the simulator's URL", () => /listening on (http:\/\/\S+)/.exec(started.stdout())?.[1], { timeoutMs: 10_000 })
}

describe("scorebridge sim (a real process)", () => {
  it("answers 401 without a token, 200 with one, and 429 beyond its rate", async () => {
    const url = await startSim(["--rate", "1"])
    const sports = (token?: string) =>
      fetch(`${url}/public/sports`, token ? { headers: { authorization: `Bearer ${token}` } } : {})
    expect((await sports()).status).toBe(401)
    const ok = await sports("demo-token")
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as { sports: string[] }).sports).toContain("tennis")
    // Immediately again: the bucket is empty.
    expect((await sports("demo-token")).status).toBe(429)
  })
})

describe("scorebridge check and run on a broken config", () => {
  const dir = tempDir("cli")
  const broken = join(dir, "broken.yaml")
  writeFileSync(broken, "service:\n  baseUrl: http://example.com\n  token: { env: NOPE_TOKEN }\nplaces: []\n")

  it("check names the file and the fields, and exits 78", async () => {
    const result = await runScorebridge("check", ["--config", broken], { NOPE_TOKEN: "" })
    expect(result.code).toBe(78)
    expect(result.stderr).toContain(broken)
    expect(result.stderr).toContain("service.baseUrl")
    expect(result.stderr).toContain("places")
  })

  it("run refuses to start and exits 78", async () => {
    const result = await runScorebridge("run", ["--config", broken], {}, 15_000)
    expect(result.code).toBe(78)
    expect(result.stderr).toContain("service.baseUrl")
  })

  it("check accepts a shipped example and exits 0", async () => {
    const result = await runScorebridge("check", ["--config", join(import.meta.dirname, "../../config/demo.yaml")], { SCOREBRIDGE_TOKEN: "demo-token" })
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("is valid")
  })
})

describe("scorebridge demo (what npm start runs)", () => {
  it("shows readings, stored entries and the service's answers, then stops by itself", async () => {
    const result = await runScorebridge("demo", ["--points", "3", "--point-every-ms", "600"], {}, 30_000)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/court-1 {2}reading {3}points 0-0/)
    expect(result.stdout.match(/entry #\d+ stored/g)).toHaveLength(4)
    expect(result.stdout.match(/answer #\d+ delivered/g)).toHaveLength(4)
    expect(result.stdout).toContain("The simulator accepted 4 of 4 score entries")
    expect(result.stdout).not.toContain("rejected")
  })
})

describe("scorebridge outbox", () => {
  it("lists counts, the pending head and dead letters with the service's error", async () => {
    const { Effect } = await import("effect")
    const { Outbox } = await import("../../src/delivery/outbox.ts")
    const { wholeOutbox } = await import("../support/whole-outbox.ts")
    const dir = tempDir("outbox-cli")
    await Effect.runPromise(Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const dead = yield* outbox.append({ place: "court-1", kind: "score", payload: scorePayload(1, 1), createdAt: 1_700_000_000_000 })
      yield* outbox.markDead(dead.id, "POST /public/places/court-1/score rejected (400): left: expected an integer")
      yield* outbox.append({ place: "court-1", kind: "score", payload: scorePayload(2, 2), createdAt: 1_700_000_001_000 })
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory: dir })), Effect.scoped))
    const config = join(dir, "config.yaml")
    writeFileSync(config, [
      "service: { baseUrl: http://127.0.0.1:9, token: { env: SOME_TOKEN } }",
      `stateDirectory: ${dir}`,
      "places: [{ key: court-1, sport: basketball }]"
    ].join("\n"))
    const result = await runScorebridge("outbox", ["--config", config])
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/court-1\s+score\s+dead\s+1/)
    expect(result.stdout).toMatch(/court-1\s+score\s+pending\s+1/)
    expect(result.stdout).toContain("#2 court-1 score")
    expect(result.stdout).toContain("rejected (400): left: expected an integer")
  })
})

describe("scorebridge outbox: recent clicks", () => {
  it("lists each place's recent clicks with their clip outcome and link, newest first", async () => {
    const { Effect } = await import("effect")
    const { Outbox } = await import("../../src/delivery/outbox.ts")
    const { wholeOutbox } = await import("../support/whole-outbox.ts")
    const dir = tempDir("outbox-clicks")
    const t0 = Date.UTC(2026, 10, 25, 14, 2, 0)
    await Effect.runPromise(Effect.gen(function*() {
      const outbox = yield* wholeOutbox
      const click = (n: number, source?: string) =>
        outbox.append({ place: "court-1", kind: "click", payload: clickPayload(t0 + n * 1000, { clickId: `c${n}`, ...(source === undefined ? {} : { source }) }), createdAt: t0 + n * 1000 })
      const ready = yield* click(0)
      const none = yield* click(60, "auto")
      const open = yield* click(120)
      yield* click(180)
      for (const [item, moment] of [[ready, "mo-1"], [none, "mo-2"], [open, "mo-3"]] as const) {
        yield* outbox.markDelivered(item.id, { eventKey: "ev-1", momentKey: moment })
      }
      yield* outbox.settleFollowUp(ready.id, "clip-ready", { angles: 2, videoURL: "http://media.test/cl-1.mp4", readyAt: t0 + 9_000 }, { read: true })
      yield* outbox.settleFollowUp(none.id, "no-clip", { momentStatus: "failed", reason: "no clip 180 s after the click was accepted: is the camera recording?" }, { read: true })
    }).pipe(Effect.provide(Outbox.layer({ stateDirectory: dir, followUps: { firstReadAfterMs: 10_000 } })), Effect.scoped))
    const config = join(dir, "config.yaml")
    writeFileSync(config, [
      "service: { baseUrl: http://127.0.0.1:9, token: { env: SOME_TOKEN } }",
      `stateDirectory: ${dir}`,
      "places: [{ key: court-1, sport: basketball }, { key: court-2, sport: basketball }]"
    ].join("\n"))
    const result = await runScorebridge("outbox", ["--config", config])
    expect(result.stderr).toBe("")
    const listed = result.stdout.slice(result.stdout.indexOf("recent clicks of court-1")).split("\n").filter((l) => l.startsWith("  #"))
    expect(listed).toEqual([
      "  #4 14:05:00Z press not sent yet",
      "  #3 14:04:00Z press accepted → waiting for its clip",
      `  #2 14:03:00Z auto  accepted → no clip (service says "failed"): no clip 180 s after the click was accepted: is the camera recording?`,
      "  #1 14:02:00Z press accepted → clip ready in 9 s, 2 angles http://media.test/cl-1.mp4"
    ])
    expect(result.stdout).not.toContain("recent clicks of court-2")
  })
})

describe("scorebridge check on a team overlay's template", () => {
  it("reads the local templateFile and names each broken template rule", async () => {
    const dir = tempDir("template")
    const template = join(dir, "scorebug.html")
    writeFileSync(template, `<html><head><meta name="size" renderWidth="400"></head><body><script>x()</script>[team] [score]</body></html>`)
    const config = join(dir, "config.yaml")
    writeFileSync(config, [
      "service: { baseUrl: http://127.0.0.1:9, token: { env: SOME_TOKEN } }",
      "places:",
      "  - key: court-1",
      "    sport: basketball",
      "    teams:",
      "      away:",
      "        overlay:",
      "          templateSource: https://cdn.example.com/scorebug.html",
      `          templateFile: ${template}`,
      "          values: { team: \"{{awayTeam}}\" }",
      "          widthPercentOfWidth: 25"
    ].join("\n"))
    const result = await runScorebridge("check", ["--config", config], { SOME_TOKEN: "t0k3n-value" })
    expect(result.code).toBe(78)
    expect(result.stderr).toContain("places[0].teams.away.overlay.templateFile")
    expect(result.stderr).toMatch(/renderHeight/)
    expect(result.stderr).toMatch(/script/i)
    expect(result.stderr).toContain("score")
    expect(result.stderr).not.toContain("t0k3n-value")
  })
})
