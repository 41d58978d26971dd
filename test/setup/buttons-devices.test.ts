import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { openWriter, type PtyPair, startPtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { keyEdge } from "../support/input-event-record.ts"
import { type ButtonApi, linkState, pollCapture, pressedOf, startButtonApi } from "./buttons-harness.ts"

let api: ButtonApi | undefined
let pty: PtyPair | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
  await pty?.stop()
  pty = undefined
  delete process.env.SCOREBRIDGE_INPUT_BY_ID
  delete process.env.SCOREBRIDGE_GPIO_DIR
})

const config = (places: ReadonlyArray<object>) => ({ service: { baseUrl: "https://service.invalid", token: { credential: "token" } }, places })

const KEY_A = 30

describe("input devices for buttons", () => {
  it("lists the by-id event devices and the GPIO chips, and a capture on a device reports its key's gesture once the multi-press window is over", async () => {
    const dir = tempDir("setup-buttons-devices")
    const byId = join(dir, "by-id")
    const dev = join(dir, "dev")
    mkdirSync(byId)
    mkdirSync(dev)
    // A pty stands in for the pedal's character device: it carries the input_event records as they are.
    pty = await startPtyPair(dir, "pedal")
    const pedal = join(byId, "usb-PCsensor_FootSwitch3-event-kbd")
    symlinkSync(pty.daemonPath, pedal)
    writeFileSync(join(byId, "usb-PCsensor_FootSwitch3-if01-mouse"), "")
    writeFileSync(join(dev, "gpiochip0"), "")
    writeFileSync(join(dev, "ttyS0"), "")
    process.env.SCOREBRIDGE_INPUT_BY_ID = byId
    process.env.SCOREBRIDGE_GPIO_DIR = dev
    api = await startButtonApi(dir, config([{ key: "court-1", sport: "basketball" }]))

    expect(await api.call("GET", "/api/buttons/devices")).toEqual({
      status: 200,
      json: { inputs: [{ path: pedal, device: realpathSync(pedal) }], gpiochips: [{ chip: "gpiochip0", path: join(dev, "gpiochip0") }] }
    })

    const started = await api.call("POST", "/api/buttons/listen", { sources: { device: pedal } })
    const { id } = started.json as { id: string }
    const writer = openWriter(pty.writerPath)
    try {
      await pollCapture(api, id, "the capture to open the device", (reply) => linkState(reply, "device") === "connected")
      // Kernel times just past (a time ahead of its arrival is taken as the arrival): down for 150 ms, with a key repeat.
      const down = Date.now() - 300
      writer.write(Buffer.concat([keyEdge(down, KEY_A, 1), keyEdge(down + 80, KEY_A, 2), keyEdge(down + 150, KEY_A, 0)]))
      const pressed = pressedOf(await pollCapture(api, id, "the pedal's press", (reply) => pressedOf(reply) !== undefined))
      expect(pressed).toEqual({
        type: "input-event",
        name: "usb-PCsensor_FootSwitch3-event-kbd",
        entry: { name: "usb-PCsensor_FootSwitch3-event-kbd", type: "input-event", device: pedal },
        button: String(KEY_A),
        gesture: "single",
        described: "input device usb-PCsensor_FootSwitch3-event-kbd: KEY_A (key 30), single"
      })
    } finally {
      writer.close()
    }
  })
})

describe("overlay preview of a place being edited", () => {
  const overlay = {
    templateSource: "https://overlays.example/bug.html",
    values: { name: "{{team}}", score: "{{teamScore}} (set {{period}})" },
    widthPercentOfWidth: 30,
    position: { horizontal: "left", vertical: "bottom" }
  }
  const place = {
    key: "court-1",
    sport: "volleyball",
    teams: { home: { overlay } },
    actions: [{ source: "remote", gesture: "single", do: "highlight", team: "home" }]
  }

  it("shows each team's overlay as a click would send it with sample values, and says which team has none", async () => {
    const dir = tempDir("setup-buttons-overlay")
    api = await startButtonApi(dir, config([place]))
    const reply = await api.call("POST", "/api/overlay-preview", { place, sample: { homeTeam: "Lions", homeScore: 2 } })
    expect(reply.status).toBe(200)
    expect(reply.json).toEqual({
      place: "court-1",
      teams: [
        {
          team: "home",
          text: "name: Lions · score: 2 (set 1) on https://overlays.example/bug.html",
          overlay: { ...overlay, values: { name: "Lions", score: "2 (set 1)" } },
          problems: [],
          lines: ["At court-1 the home overlay goes on:", "  press remote (any button) single"]
        },
        {
          team: "away",
          text: "No overlay: place \"court-1\" has no overlay for the away team (add places[0].teams.away.overlay); teams with an overlay: home",
          overlay: null,
          problems: [],
          lines: ["No press or auto-highlight at court-1 is for the away team yet."]
        }
      ]
    })
  })

  it("answers a place that does not load with the config's words", async () => {
    const dir = tempDir("setup-buttons-overlay-bad")
    api = await startButtonApi(dir, config([place]))
    const reply = await api.call("POST", "/api/overlay-preview", { place: { ...place, sport: "quidditch" } })
    expect(reply.status).toBe(422)
    expect((reply.json as { error: string }).error).toMatch(/^the place does not load: place\.sport: /)
    expect((await api.call("POST", "/api/overlay-preview", { court: place })).status).toBe(400)
  })
})
