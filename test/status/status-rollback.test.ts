import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { clearRollbackRecord, type RollbackRecord, writeRollbackRecord } from "../../src/upgrade/rollback-record.ts"
import { resources } from "../scoreboard/harness.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { launchChromium, withoutChromium } from "./chromium.ts"
import { parsePrometheus, valueOf } from "./prometheus-text.ts"
import { get, startStatusDaemon } from "./status-daemon.ts"
import { inVenueZone } from "../support/venue-zone.ts"

/**
 * An automatic rollback where people look: the upgrade guard's record (written by its own writer)
 * in the package's directory, read by the real daemon at start-up (one warning for the journal)
 * and at each snapshot: the status page's banner in headless Chromium, /status.json's `rollback`,
 * /metrics' scorebridge_rollback_info and scorebridge_rolled_back_at_seconds, and all of it gone
 * once the record is.
 */
const res = resources()
afterAll(() => res.release())
// The bridge in Adelaide (+10:30 in November): the banner and the journal say the venue's clock
// and date, 00:32:31 on the 27th for 14:02:31 UTC on the 26th.
inVenueZone("Australia/Adelaide")

const rolledBack: RollbackRecord = {
  at: "2026-11-26T14:02:31.000Z",
  from: "0.1.0",
  to: "0.2.0",
  reason: "restarted 4 times since the upgrade (more than 3): a restart loop",
  reasonKind: "restart_loop",
  reinstalled: true,
  held: true
}

const metrics = async (url: string) => parsePrometheus((await get(`${url}/metrics`)).body)
const statusJson = async (url: string) => JSON.parse((await get(`${url}/status.json`)).body) as { rollback: Record<string, unknown> | null }

describe.skipIf(withoutChromium)("a rollback on the status page, /status.json, /metrics and the journal", () => {
  it("shows the guard's record until it goes, and the next one when it changes", async () => {
    const packageDirectory = join(tempDir("package", res), "scorebridge-package")
    mkdirSync(packageDirectory)
    await Effect.runPromise(writeRollbackRecord(packageDirectory, rolledBack))
    // The daemon's way to a package directory other than /var/lib/scorebridge-package.
    process.env["SCOREBRIDGE_PACKAGE_DIR"] = packageDirectory
    res.defer(() => void delete process.env["SCOREBRIDGE_PACKAGE_DIR"])
    const daemon = await startStatusDaemon(res, { courts: ["live"], venue: "lyon-centre" })

    const text = "Rolled back from 0.2.0 to 0.1.0 at 00:32:31 on 2026-11-27: restarted 4 times since the upgrade (more than 3): a restart loop. " +
      "The package is held: `sudo apt-mark unhold scorebridge` once a fixed version is out."
    expect(daemon.logs.filter((line) => line.includes("Rolled back"))).toEqual([`Warn ${text}`])

    expect((await statusJson(daemon.url)).rollback).toEqual({
      at: Date.parse(rolledBack.at), from: "0.1.0", to: "0.2.0", reason: rolledBack.reason, reasonKind: "restart_loop",
      reinstalled: true, held: true, error: null, text
    })
    let scraped = await metrics(daemon.url)
    expect(scraped.get("scorebridge_rollback_info")?.type).toBe("gauge")
    expect(valueOf(scraped, "scorebridge_rollback_info", { venue: "lyon-centre", from: "0.1.0", to: "0.2.0", reason_kind: "restart_loop" })).toBe(1)
    expect(valueOf(scraped, "scorebridge_rolled_back_at_seconds", { venue: "lyon-centre" })).toBe(Date.parse(rolledBack.at) / 1000)

    const context = await launchChromium(res, { width: 1100, height: 900 })
    const page = await context.newPage()
    await page.goto(`${daemon.url}/`)
    const banner = page.locator("[data-rollback]")
    await banner.filter({ hasText: "Rolled back from 0.2.0 to 0.1.0" }).waitFor({ timeout: 5_000 })
    expect(await banner.textContent()).toBe(text.replaceAll("`", ""))
    expect(await banner.locator("code").textContent()).toBe("sudo apt-mark unhold scorebridge")
    await page.screenshot({ path: join(process.cwd(), "test-artifacts", "status-rollback.png"), fullPage: true })

    // A later version passed its watch: the guard removed the record; the page and /metrics follow.
    await Effect.runPromise(clearRollbackRecord(packageDirectory))
    await banner.waitFor({ state: "hidden", timeout: 5_000 })
    expect((await statusJson(daemon.url)).rollback).toBeNull()
    scraped = await metrics(daemon.url)
    expect(scraped.has("scorebridge_rollback_info")).toBe(false)
    expect(scraped.has("scorebridge_rolled_back_at_seconds")).toBe(false)

    // A guard that could not go back says so, and the series carry the new labels only.
    await Effect.runPromise(writeRollbackRecord(packageDirectory, {
      ...rolledBack, at: "2026-11-27T09:15:00.000Z", from: "0.2.0", to: "0.3.0", reason: "never READY within 3 min of the upgrade (systemd says activating/start)",
      reasonKind: "never_ready", reinstalled: false, held: false, error: "no previous package is kept"
    }))
    await banner.filter({ hasText: "going back to 0.2.0 failed: no previous package is kept" }).waitFor({ timeout: 5_000 })
    expect(await banner.textContent()).toContain("0.3.0 failed its watch at 19:45:00 on 2026-11-27 (never READY")
    scraped = await eventually("the new record on /metrics", async () => {
      const now = await metrics(daemon.url)
      return valueOf(now, "scorebridge_rollback_info", { reason_kind: "never_ready" }) === 1 ? now : undefined
    })
    expect(scraped.get("scorebridge_rollback_info")?.samples.map((s) => s.labels)).toEqual([{ venue: "lyon-centre", from: "0.2.0", to: "0.3.0", reason_kind: "never_ready" }])
    expect(valueOf(scraped, "scorebridge_rolled_back_at_seconds")).toBe(Date.parse("2026-11-27T09:15:00.000Z") / 1000)
  }, 40_000)
})
