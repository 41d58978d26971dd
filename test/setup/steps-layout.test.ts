import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { clockPacket, type Shown, statePacket } from "../../adapters/fairplay-mp70/encode.ts"
import { daemonConfig } from "../../scripts/support/daemon-config.ts"
import { eventually } from "../../scripts/support/eventually.ts"
import { openWriter, type PtyPair, type PtyWriter, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { byIdLink, startSteps, type Steps, useByIdDirectory, writeSetupConfig } from "./steps-support.ts"

/**
 * A Fair-Play MP-70 whose fields are not where the rink layout puts them (a firmware that moved
 * them): the page's reading does not match the board, the technician notes what the board shows
 * at a few moments, and the layout finder gives the options that read it.
 */
const moved = { fields: { home: "H 30-32", away: "H 34-36", period: "C 9", clock: "C 3-6" } } as const

/** A hockey game as the board shows it; no score of one team is the other's a moment before or after (the finder's look-back). */
const game: ReadonlyArray<Shown & { readonly home: number; readonly away: number; readonly period: number; readonly clock: string }> = [
  { home: 0, away: 0, period: 1, clock: "15:00" },
  { home: 1, away: 0, period: 1, clock: "12:34" },
  { home: 1, away: 2, period: 2, clock: "9:58" },
  { home: 3, away: 2, period: 3, clock: "4:05" },
  { home: 12, away: 7, period: 3, clock: "0:47" }
]

const adapterName = "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"

let dir: string
let restoreById: () => void
let pty: PtyPair
let board: PtyWriter
let steps: Steps
let written = 0

interface Listening {
  readonly light: string
  readonly bytes: number
  readonly badFrames: number
  readonly reading: { readonly text: string; readonly home?: number; readonly away?: number; readonly period?: number; readonly clock?: string } | null
}

const look = async (id: string) => (await steps.call("GET", `/api/listen/${id}`)).json as Listening

const listen = async (options: object) => {
  const path = join(dir, "by-id", adapterName)
  const reply = await steps.call("POST", "/api/listen", { body: { protocol: "fairplay-mp70", sport: "hockey", options, link: { serial: { path } } } })
  expect(reply.status, JSON.stringify(reply.json)).toBe(200)
  written = 0
  return (reply.json as { id: string }).id
}

/** The console sends the board once (its C and H packets); resolves when the session has every byte of it. */
const show = async (id: string, shown: Shown) => {
  const packets = [clockPacket(shown, moved), statePacket(shown, moved)]
  for (const packet of packets) board.write(packet)
  written += packets.reduce((n, p) => n + p.length, 0)
  return eventually("the session to receive the packets", async () => {
    const view = await look(id)
    return view.bytes >= written ? view : undefined
  })
}

beforeEach(async () => {
  dir = tempDir("setup-steps-layout")
  restoreById = useByIdDirectory(join(dir, "by-id"))
  pty = await startPtyPair(dir)
  byIdLink(join(dir, "by-id"), adapterName, pty.daemonPath)
  writeSetupConfig(dir, daemonConfig({ service: { baseUrl: "http://127.0.0.1:9/" }, places: [] }))
  steps = await startSteps(dir)
  board = openWriter(pty.writerPath)
})

afterEach(async () => {
  board.close()
  await steps.close()
  await pty.stop()
  restoreById()
  rmSync(dir, { recursive: true, force: true })
})

describe("the layout finder in the listening step: a Fair-Play console with moved fields", () => {
  it("finds the options from moments noted as the board shows them, and with them the reading matches the board", async () => {
    const id = await listen({})
    // With the rink layout's places the page cannot show the board's score.
    const before = await show(id, game[1]!)
    expect(before.reading?.home).toBeUndefined()
    expect(before.reading?.clock).not.toBe("12:34")

    for (const shown of game) {
      await show(id, shown)
      const noted = await steps.call("POST", `/api/listen/${id}/moments`, {
        body: { noted: `home ${shown.home} guest ${shown.away} period ${shown.period} clock ${shown.clock}` }
      })
      expect(noted.status).toBe(200)
    }
    const moments = (await steps.call("POST", `/api/listen/${id}/moments`, { body: { noted: "home 12 guest 7" } })).json as { moments: ReadonlyArray<{ text: string }> }
    expect(moments.moments).toHaveLength(game.length + 1)
    expect(moments.moments.at(-1)!.text).toBe("home 12, guest 7")

    const layout = await steps.call("POST", `/api/listen/${id}/layout`)
    expect(layout.status).toBe(200)
    const found = layout.json as { outcome: string; options?: { fields?: Record<string, string> }; lines: ReadonlyArray<string> }
    expect(found.outcome, found.lines.join("\n")).toBe("found")
    // Exactly where the console put them, as data to merge into the place's options.
    expect(found.options).toEqual(moved)
    expect(found.lines.join("\n")).toMatch(/reads every moment as noted/u)

    // Accepted: listening again with the options found, the page shows what the board shows.
    const again = await listen(found.options!)
    const view = await eventually("the reading with the options found", async () => {
      const seen = await show(again, game[4]!)
      return seen.reading?.home === 12 ? seen : undefined
    })
    expect(view.reading).toMatchObject({ home: 12, away: 7, period: 3 })
    expect(view.reading?.text).toBe("12–7 · period 3 · 0:47")
    expect(view.badFrames).toBe(0)
  })

  it("says what is ambiguous when the moments cannot tell two places apart", async () => {
    const id = await listen({})
    // Both scores 0 at the only moment noted: either score's bytes read it.
    await show(id, game[0]!)
    await steps.call("POST", `/api/listen/${id}/moments`, { body: { noted: "home 0 guest 0" } })
    const layout = (await steps.call("POST", `/api/listen/${id}/layout`)).json as { outcome: string; options?: unknown; lines: ReadonlyArray<string> }
    expect(layout.outcome).toBe("ambiguous")
    expect(layout.options).toBeUndefined()
    expect(layout.lines.join("\n")).toMatch(/home: ambiguous/u)
  })

  it("refuses a note it cannot read, in words, and a layout without moments", async () => {
    const id = await listen({})
    const bad = await steps.call("POST", `/api/listen/${id}/moments`, { body: { noted: "home three" } })
    expect(bad.status).toBe(400)
    expect((bad.json as { error: string }).error).toMatch(/not a score/u)
    const early = await steps.call("POST", `/api/listen/${id}/layout`)
    expect(early.status).toBe(400)
    expect((early.json as { error: string }).error).toMatch(/no moment noted yet/u)
  })
})
