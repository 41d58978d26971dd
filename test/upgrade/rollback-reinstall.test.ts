import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Schema } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { keptPackage, rollBack } from "../../src/upgrade/reinstall.ts"
import { RollbackRecord } from "../../src/upgrade/rollback-record.ts"
import { resources } from "../support/resources.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { runScorebridge } from "../../scripts/support/scorebridge-process.ts"
import { arch, upgradedRoot, versionIn } from "./tiny-packages.ts"
import { unansweredConfig } from "./unanswered-config.ts"

/**
 * The guard's way back, for real, in throw-away roots (`dpkg --root R --force-script-chrootless`):
 * 0.1.0 then 0.2.0 installed, 0.1.0 kept in R/var/lib/scorebridge-package/previous/ as the
 * package's preinst keeps it; the reinstall must leave dpkg in R reporting 0.1.0 on hold, and the
 * record written. The packages are two tiny ones named scorebridge (a VERSION file each): the
 * mechanics of going back do not depend on what the package holds.
 */
const res = resources()
afterEach(() => res.release())

const readRecord = (packageDirectory: string) =>
  Schema.decodeUnknownSync(RollbackRecord)(JSON.parse(readFileSync(join(packageDirectory, "rollback.json"), "utf8")))

const failure = { kind: "restart_loop" as const, text: "restarted 4 times since the upgrade (more than 3): a restart loop" }

describe("going back to the kept package, in a throw-away root", () => {
  it("reinstalls 0.1.0 over 0.2.0, holds it, and writes the record (0644)", async () => {
    const { root, packageDirectory, selection } = upgradedRoot(res)
    const said: Array<string> = []
    const record = await Effect.runPromise(rollBack({
      from: "0.1.0", to: "0.2.0", failure, packageDirectory, root, say: (line) => Effect.sync(() => void said.push(line))
    }))
    expect(versionIn(root)).toBe("0.1.0")
    expect(readFileSync(join(root, "usr/lib/scorebridge/VERSION"), "utf8")).toBe("0.1.0\n")
    expect(selection()).toBe("hold")
    expect(record).toMatchObject({ from: "0.1.0", to: "0.2.0", reasonKind: "restart_loop", reason: failure.text, reinstalled: true, held: true })
    expect(record.error).toBeUndefined()
    expect(readRecord(packageDirectory)).toEqual(record)
    expect(statSync(join(packageDirectory, "rollback.json")).mode & 0o777).toBe(0o644)
    expect(said.join("\n")).toContain("scorebridge is held at 0.1.0")
    // The package's scripts are told it is the guard's rollback (deploy/debian/preinst, postinst).
    expect(readFileSync(join(root, "preinst.log"), "utf8").trim().split("\n").at(-1)).toBe("upgrade 1")
  })

  it("with no kept package, says so and writes reinstalled: false; 0.2.0 stays, not held", async () => {
    const { root, packageDirectory, selection } = upgradedRoot(res, { keep: false })
    const said: Array<string> = []
    const record = await Effect.runPromise(rollBack({
      from: "0.1.0", to: "0.2.0", failure, packageDirectory, root, say: (line) => Effect.sync(() => void said.push(line))
    }))
    expect(versionIn(root)).toBe("0.2.0")
    expect(selection()).toBe("install")
    expect(record).toMatchObject({ reinstalled: false, held: false })
    expect(record.error).toContain(`previous/scorebridge_0.1.0_${arch}.deb does not exist`)
    expect(readRecord(packageDirectory)).toEqual(record)
    expect(said.join("\n")).toContain("CANNOT ROLL BACK")
  })

  it("waits for dpkg's lock while apt still holds it, then goes back", async () => {
    const { root, packageDirectory, selection } = upgradedRoot(res)
    // dpkg locks with fcntl: a process holding its frontend lock for a while, as apt does.
    const holder = spawn("python3", ["-c", [
      "import fcntl, sys, time",
      `f = open(${JSON.stringify(join(root, "var/lib/dpkg/lock-frontend"))}, "w")`,
      "fcntl.lockf(f, fcntl.LOCK_EX)",
      "print('locked', flush=True)",
      "time.sleep(1.5)"
    ].join("\n")], { stdio: ["ignore", "pipe", "inherit"] })
    res.defer(() => void holder.kill())
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()))
    const said: Array<string> = []
    const record = await Effect.runPromise(rollBack({
      from: "0.1.0", to: "0.2.0", failure, packageDirectory, root, lockRetryMs: 250, lockWaitMs: 20_000,
      say: (line) => Effect.sync(() => void said.push(line))
    }))
    expect(said.join("\n")).toContain("dpkg is locked")
    expect(record).toMatchObject({ reinstalled: true, held: true })
    expect(versionIn(root)).toBe("0.1.0")
  })

  it("the command: a version that never gets READY within its watch is rolled back (exit 1)", async () => {
    const { root, packageDirectory, selection } = upgradedRoot(res)
    // Nobody serves this status address: the "new version" never answers.
    const config = await unansweredConfig(res)
    const run = await runScorebridge("upgrade-guard", [
      "--from", "0.1.0", "--to", "0.2.0", "--config", config, "--root", root, "--watch-minutes", "0.05", "--poll-seconds", "0.5"
    ])
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1)
    expect(run.stdout).toContain("watching 0.2.0 (upgraded from 0.1.0) for 0.05 min")
    expect(run.stderr).not.toContain("the config does not load")
    expect(versionIn(root)).toBe("0.1.0")
    expect(selection()).toBe("hold")
    expect(readRecord(packageDirectory)).toMatchObject({ from: "0.1.0", to: "0.2.0", reasonKind: "never_ready", reinstalled: true, held: true })
    expect(readRecord(packageDirectory).reason).toBe("never READY within 3 s of the upgrade (its status page does not answer)")
  }, 30_000)

  it("finds the kept package by the version as dpkg gives it, epoch and all, or without the epoch", () => {
    const directory = tempDir("kept", res)
    mkdirSync(join(directory, "previous"))
    writeFileSync(join(directory, "previous", `scorebridge_1:0.1.0_${arch}.deb`), "")
    expect(keptPackage(directory, "1:0.1.0", arch).found).toBe(join(directory, "previous", `scorebridge_1:0.1.0_${arch}.deb`))
    writeFileSync(join(directory, "previous", "scorebridge_0.0.9_all.deb"), "")
    expect(keptPackage(directory, "2:0.0.9", arch).found).toBe(join(directory, "previous", "scorebridge_0.0.9_all.deb"))
    expect(keptPackage(directory, "0.0.8", arch)).toMatchObject({ found: undefined, held: [`scorebridge_0.0.9_all.deb`, `scorebridge_1:0.1.0_${arch}.deb`] })
  })
})
