import { mkdirSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { openWriter, type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { keyEdge } from "../support/input-event-record.ts"
import { type ButtonApi, linkState, pollCapture, pressedOf, startButtonApi } from "./buttons-harness.ts"

let api: ButtonApi | undefined
const ptys: Array<PtyPair> = []
afterEach(async () => {
  await api?.close()
  api = undefined
  for (const pty of ptys.splice(0)) await pty.stop()
  delete process.env.SCOREBRIDGE_INPUT_BY_ID
})

const config = { service: { baseUrl: "https://service.invalid", token: { credential: "token" } }, places: [{ key: "court-1", sport: "basketball" }] }
const KEY_B = 48

describe("button captures on idle input devices", () => {
  it("hold none of the thread pool: with six browsers' captures waiting on their pedals, the server still reads files, and a press is heard", async () => {
    const dir = tempDir("setup-buttons-input-pool")
    const byId = join(dir, "by-id")
    mkdirSync(byId)
    process.env.SCOREBRIDGE_INPUT_BY_ID = byId
    const pedals: Array<{ path: string; pty: PtyPair }> = []
    for (let n = 0; n < 6; n++) {
      // A pty stands in for each pedal's character device.
      const pty = await startPtyPair(dir, `pedal-${n}`)
      ptys.push(pty)
      const path = join(byId, `usb-Pedal${n}-event-kbd`)
      symlinkSync(pty.daemonPath, path)
      pedals.push({ path, pty })
    }
    api = await startButtonApi(dir, config)
    const ids: Array<string> = []
    for (const [n, pedal] of pedals.entries()) {
      const started = await api.call("POST", "/api/buttons/listen", { sources: { device: pedal.path } }, `browser-${n}`)
      expect(started.status, JSON.stringify(started.json)).toBe(200)
      ids.push((started.json as { id: string }).id)
      await pollCapture(api, ids[n]!, "the pedal to open", (reply) => linkState(reply, "device") === "connected", `browser-${n}`)
    }
    // Listing the devices reads directories on the thread pool, which six blocking reads would fill.
    const answered = await Promise.race([
      api.call("GET", "/api/buttons/devices").then(() => "answered"),
      new Promise<string>((resolve) => setTimeout(resolve, 3_000, "hung"))
    ])
    expect(answered).toBe("answered")
    const writer = openWriter(pedals[5]!.pty.writerPath)
    try {
      const down = Date.now() - 300
      writer.write(Buffer.concat([keyEdge(down, KEY_B, 1), keyEdge(down + 120, KEY_B, 0)]))
      const pressed = pressedOf(await pollCapture(api, ids[5]!, "the last pedal's press", (reply) => pressedOf(reply) !== undefined, "browser-5"))
      expect(pressed).toMatchObject({ type: "input-event", button: String(KEY_B), gesture: "single" })
    } finally {
      writer.close()
    }
  })
})
