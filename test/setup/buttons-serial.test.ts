import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startMosquitto, type Mosquitto } from "../../scripts/support/mosquitto.ts"
import { openWriter, startPtyPair, type PtyPair } from "../../scripts/support/pty.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type ButtonApi, linkState, pollCapture, pressedOf, startButtonApi } from "./buttons-harness.ts"

let dir: string
let broker: Mosquitto
let pty: PtyPair | undefined
let api: ButtonApi | undefined

beforeAll(async () => {
  dir = tempDir("setup-buttons-serial")
  broker = await startMosquitto(dir)
  // The ptys' links stand in for /dev/serial/by-id: only what is listed there is opened.
  process.env.SCOREBRIDGE_SERIAL_BY_ID = dir
})
afterEach(async () => {
  await api?.close()
  api = undefined
  await pty?.stop()
  pty = undefined
})
afterAll(async () => {
  delete process.env.SCOREBRIDGE_SERIAL_BY_ID
  await broker.stop()
})

const configWith = (extra: object) => ({
  service: { baseUrl: "https://service.invalid", token: { credential: "token" } },
  mqtt: { url: broker.url },
  places: [{ key: "court-1", sport: "volleyball" }],
  ...extra
})

const listen = async (sources: object, session = "browser-1") => {
  const started = await api!.call("POST", "/api/buttons/listen", { sources }, session)
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  return (started.json as { id: string }).id
}

const connected = (id: string, link: string, session = "browser-1") =>
  pollCapture(api!, id, `the capture's ${link} link`, (reply) => linkState(reply, link) === "connected", session)

const pressed = async (id: string, session = "browser-1") =>
  pressedOf(await pollCapture(api!, id, "a press", (reply) => pressedOf(reply) !== undefined, session))

describe("button capture on a serial-buttons port", () => {
  it("listens on the port and the broker at once and reports the first line the serial-buttons decoder reads as a press; then frees the port", async () => {
    pty = await startPtyPair(dir, "usb-Arduino_Uno_95037323535351803130-if00")
    api = await startButtonApi(dir, configWith({}))
    const id = await listen({ mqtt: {}, serial: { path: pty.daemonPath } })
    await connected(id, "serial")
    await connected(id, "mqtt")
    const writer = openWriter(pty.writerPath)
    try {
      writer.write("hello from the arduino\r\nBTN 2 single 7\r\n")
      expect(await pressed(id)).toEqual({
        type: "serial-buttons",
        name: "usb-Arduino_Uno_95037323535351803130-if00-daemon",
        entry: { name: "usb-Arduino_Uno_95037323535351803130-if00-daemon", type: "serial-buttons", serial: { path: pty.daemonPath } },
        button: "2",
        gesture: "single",
        described: `serial-buttons on ${pty.daemonPath}: button 2, single`
      })
    } finally {
      writer.close()
    }
    // The capture closed the port once it had its press: another browser's capture opens it and hears it.
    const next = await listen({ serial: { path: pty.daemonPath, pattern: "^(?<gesture>\\w+)$" } }, "browser-2")
    await connected(next, "serial", "browser-2")
    const again = openWriter(pty.writerPath)
    try {
      again.write("double\n")
      const second = await pressed(next, "browser-2")
      expect(second).toMatchObject({ entry: { options: { pattern: "^(?<gesture>\\w+)$" } }, button: "1", gesture: "double" })
    } finally {
      again.close()
    }
  })

  it("refuses a port the config's place reads, a link the config would refuse, and replaces a session's earlier capture", async () => {
    pty = await startPtyPair(dir, "board")
    api = await startButtonApi(dir, configWith({ places: [{ key: "court-1", sport: "volleyball", scoreboard: { protocol: "stramatel-452m", serial: { path: pty.daemonPath } } }] }))
    const busy = await api.call("POST", "/api/buttons/listen", { sources: { serial: { path: pty.daemonPath } } })
    expect(busy.status).toBe(409)
    expect((busy.json as { error: string }).error).toContain(`${pty.daemonPath} is read by the daemon for place court-1`)

    const relative = await api.call("POST", "/api/buttons/listen", { sources: { serial: { path: "ttyUSB0", baudRate: 12345 } } })
    expect(relative.status).toBe(400)
    expect((relative.json as { error: string }).error).toMatch(/^serial: serial\.path: must be an absolute device path.*serial\.baudRate/)

    const first = await listen({ mqtt: {} })
    const second = await listen({ mqtt: {} })
    expect((await api.call("GET", `/api/buttons/listen/${first}`)).status).toBe(404)
    expect((await api.call("GET", `/api/buttons/listen/${second}`)).status).toBe(200)
    // Another session does not see it.
    expect((await api.call("GET", `/api/buttons/listen/${second}`, undefined, "browser-2")).status).toBe(404)
  })
})
