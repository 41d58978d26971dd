import { readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { Console, Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { announceFilePath, announceFileWriter, announceText, parseAnnounce } from "../../src/setup/privilege/announce-file.ts"

/**
 * The setup unit's announce file, as `serveSetup` calls it (each address served, then each code):
 * what `sudo scorebridge setup` reads and prints.
 */
describe("the announce file", () => {
  const dir = tempDir("announce")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("is in $RUNTIME_DIRECTORY (systemd's RuntimeDirectory=), else /run/scorebridge-setup", () => {
    expect(announceFilePath("/run/scorebridge-setup")).toBe("/run/scorebridge-setup/announce")
    expect(announceFilePath(dir)).toBe(join(dir, "announce"))
    expect(announceFilePath(undefined)).toBe("/run/scorebridge-setup/announce")
    expect(announceFilePath("")).toBe("/run/scorebridge-setup/announce")
  })

  it("holds a line per address and the current code, rewritten whole (0600, no temp file left) when a fresh code comes", async () => {
    const path = join(dir, "announce")
    const announce = await Effect.runPromise(announceFileWriter(path))
    await Effect.runPromise(announce.address("http://127.0.0.1:8380/"))
    expect(readFileSync(path, "utf8")).toBe("setup page: http://127.0.0.1:8380/\n")
    await Effect.runPromise(announce.address("http://[::1]:8380/"))
    await Effect.runPromise(announce.code("ABCD-EFGH"))
    const first = readFileSync(path, "utf8")
    expect(first).toBe("setup page: http://127.0.0.1:8380/\nsetup page: http://[::1]:8380/\nsetup code: ABCD-EFGH\n")
    const inode = statSync(path).ino
    await Effect.runPromise(announce.code("JKLM-NPQR"))
    expect(readFileSync(path, "utf8")).toBe("setup page: http://127.0.0.1:8380/\nsetup page: http://[::1]:8380/\nsetup code: JKLM-NPQR\n")
    // Renamed over, not written in place: a reader never sees half of it.
    expect(statSync(path).ino).not.toBe(inode)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(["announce"])
  })

  it("tells the journal the addresses and that a code is ready, never the code", async () => {
    const logged: Array<string> = []
    const console = { ...globalThis.console, log: (...parts: ReadonlyArray<unknown>) => void logged.push(parts.join(" ")) }
    const announce = await Effect.runPromise(announceFileWriter(join(dir, "journal-announce")))
    await Effect.runPromise(Effect.provideService(Effect.andThen(announce.address("http://127.0.0.1:8380/"), announce.code("ABCD-EFGH")), Console.Console, console))
    expect(logged[0]).toBe("setup page: http://127.0.0.1:8380/")
    expect(logged[1]).toMatch(/^setup code: a new one is ready/u)
    expect(logged.join("\n")).not.toContain("ABCD-EFGH")
  })

  it("reads back as the addresses and the code; a file without a code has none yet", () => {
    const announced = { pages: ["http://127.0.0.1:8380/", "http://192.168.1.5:8380/"], code: "ABCD-EFGH" }
    expect(parseAnnounce(announceText(announced))).toEqual(announced)
    expect(parseAnnounce("setup page: http://127.0.0.1:8380/\n")).toEqual({ pages: ["http://127.0.0.1:8380/"], code: undefined })
    expect(parseAnnounce("setup code: abcd-efgh\n").code).toBeUndefined()
  })
})
