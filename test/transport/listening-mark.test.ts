import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { listeningMarkWriter, readListeningMark } from "../../src/transport/listening-mark.ts"

/**
 * The listening mark is written off the event loop: writes that overlap (a connect and a ping
 * tick) must still leave the last one in the file, whole, and a write that cannot be made says so.
 */
const directories: Array<string> = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})
const stateDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), "scorebridge-mark-"))
  directories.push(directory)
  return directory
}

describe("listeningMarkWriter", () => {
  it("writes one mark at a time: overlapping writes leave the last one, whole, and no temporary file", async () => {
    const file = join(stateDirectory(), "mqtt-listening")
    const write = listeningMarkWriter(file)
    const marks = Array.from({ length: 50 }, (_, i) => 1_795_000_000_000 + i)
    // Not awaited one by one: each starts while the ones before are still on the thread pool.
    const written = await Promise.all(marks.map((at) => write(at)))
    expect(written.every(Boolean)).toBe(true)
    expect(readListeningMark(file)).toBe(marks.at(-1))
    expect(existsSync(`${file}.tmp`)).toBe(false)
  })

  it("resolves false when the mark cannot be written (the state directory gone), and the next write still runs", async () => {
    const directory = stateDirectory()
    const file = join(directory, "mqtt-listening")
    const write = listeningMarkWriter(file)
    rmSync(directory, { recursive: true })
    expect(await write(1_795_000_000_000)).toBe(false)
    mkdirSync(directory)
    expect(await write(1_795_000_005_000)).toBe(true)
    expect(readListeningMark(file)).toBe(1_795_000_005_000)
  })
})
