import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { connectAsync, type MqttClient } from "mqtt"
import { Effect } from "effect"
import { stringify } from "yaml"
import { protocols } from "../../adapters/registry.ts"
import { parseConfig } from "../../src/config/load.ts"
import { startMosquitto, type Mosquitto } from "../../scripts/support/mosquitto.ts"
import { tempDir } from "../../scripts/support/temp-dir.ts"
import { type ButtonApi, linkState, pollCapture, pressedOf, startButtonApi } from "./buttons-harness.ts"

let dir: string
let broker: Mosquitto
let peer: MqttClient
let api: ButtonApi | undefined

beforeAll(async () => {
  dir = tempDir("setup-buttons-mqtt")
  broker = await startMosquitto(dir)
  peer = await connectAsync(broker.url, { clientId: "buttons-mqtt-peer", clean: true })
})
afterEach(async () => {
  await api?.close()
  api = undefined
})
afterAll(async () => {
  await peer.endAsync(true)
  await broker.stop()
})

const court = { key: "court-3", sport: "basketball" }
const configWith = (extra: object) => ({ service: { baseUrl: "https://service.invalid", token: { credential: "token" } }, places: [court], ...extra })

const publish = (topic: string, payload: unknown, retain = false) =>
  peer.publishAsync(topic, typeof payload === "string" ? payload : JSON.stringify(payload), { qos: 1, retain })

/** Starts a capture on the broker and waits until the broker granted its subscriptions. */
const listenOnBroker = async (body: unknown = { sources: { mqtt: {} } }) => {
  const started = await api!.call("POST", "/api/buttons/listen", body)
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const { id } = started.json as { id: string }
  await pollCapture(api!, id, "the capture's broker link to connect", (reply) => linkState(reply, "mqtt") === "connected")
  return id
}

/** A publish the capture must see after its subscription: the marker's press proves the noise before it was read. */
const pressedAfter = async (id: string) => pressedOf(await pollCapture(api!, id, "a press", (reply) => pressedOf(reply) !== undefined))

describe("button capture on the config's broker", () => {
  it("reports a zigbee2mqtt press with the device's topic and a name from its friendly name; a retained press, a battery report and the bridge's topics are not presses", async () => {
    api = await startButtonApi(dir, configWith({ mqtt: { url: broker.url } }))
    await publish("zigbee2mqtt/old-remote", { action: "single" }, true)
    const id = await listenOnBroker()
    await publish("zigbee2mqtt/court-3-remote", { battery: 97, linkquality: 120, voltage: 3000 })
    await publish("zigbee2mqtt/bridge/event", { action: "single" })
    await publish("zigbee2mqtt/court-3-remote", { action: "single", battery: 97, linkquality: 120 })
    const pressed = await pressedAfter(id)
    expect(pressed).toEqual({
      type: "zigbee2mqtt",
      name: "court-3-remote",
      entry: { name: "court-3-remote", type: "zigbee2mqtt", mqtt: { topics: ["zigbee2mqtt/court-3-remote"] } },
      gesture: "single",
      described: "zigbee2mqtt device court-3-remote, action single"
    })
    // What the page saves from it loads as a config: the entry, and the actions line from its pieces.
    const { entry, name, gesture } = pressed as { entry: unknown; name: string; gesture: string }
    const saved = configWith({
      mqtt: { url: broker.url },
      buttons: [entry],
      places: [{ ...court, actions: [{ source: name, gesture, do: "highlight", team: "home" }] }]
    })
    await Effect.runPromise(parseConfig(stringify(saved), "config.yaml", protocols))

    expect((await api.call("DELETE", `/api/buttons/listen/${id}`)).json).toEqual({ stopped: true })
    expect((await api.call("GET", `/api/buttons/listen/${id}`)).status).toBe(404)
    await publish("zigbee2mqtt/old-remote", "", true)
  })

  it("reports a Shelly Gen2 input's gesture with its button, and a Gen1 button's entry covers all its inputs", async () => {
    api = await startButtonApi(dir, configWith({ mqtt: { url: broker.url } }))
    const gen2 = "shellyplusi4-a8032ab12345/events/rpc"
    let id = await listenOnBroker()
    await publish(gen2, { src: "shellyplusi4-a8032ab12345", method: "NotifyStatus", params: { ts: 1_700_000_000.1, "input:1": { id: 1, state: true } } })
    await publish(gen2, { src: "shellyplusi4-a8032ab12345", method: "NotifyEvent", params: { ts: 1_700_000_000.2, events: [{ component: "input:1", id: 1, event: "double_push", ts: 1_700_000_000.2 }] } })
    const pressed = await pressedAfter(id)
    expect(pressed).toEqual({
      type: "shelly",
      name: "shellyplusi4-a8032ab12345",
      entry: { name: "shellyplusi4-a8032ab12345", type: "shelly", mqtt: { topics: [gen2] } },
      button: "1",
      gesture: "double",
      described: "Shelly shellyplusi4-a8032ab12345 (Gen2), input 1, double"
    })

    id = await listenOnBroker()
    await publish("shellies/shellybutton1-C45BBE6A1B2C/input_event/0", { event: "L", event_cnt: 4 })
    expect(await pressedAfter(id)).toMatchObject({
      type: "shelly",
      entry: { name: "shellybutton1-C45BBE6A1B2C", type: "shelly", mqtt: { topics: ["shellies/shellybutton1-C45BBE6A1B2C/input_event/+"] } },
      button: "0",
      gesture: "hold"
    })
  })

  it("proposes the config's own entry for a device it already reads, and a free name for a new device whose name is taken", async () => {
    const configured = { name: "court-3-remote", type: "zigbee2mqtt", mqtt: { topics: ["zigbee2mqtt/hall-remote"] } }
    const known = { name: "remote", type: "zigbee2mqtt", mqtt: { topics: ["zigbee2mqtt/court-3-remote", "zigbee2mqtt/spare"] } }
    api = await startButtonApi(dir, configWith({ mqtt: { url: broker.url }, buttons: [configured] }))
    let id = await listenOnBroker()
    await publish("zigbee2mqtt/court-3-remote", { action: "button_2_hold" })
    expect(await pressedAfter(id)).toMatchObject({ name: "court-3-remote-2", entry: { name: "court-3-remote-2" }, button: "2", gesture: "hold" })
    await api.close()

    api = await startButtonApi(dir, configWith({ mqtt: { url: broker.url }, buttons: [configured, known] }))
    id = await listenOnBroker()
    await publish("zigbee2mqtt/court-3-remote", { action: "1_single" })
    expect(await pressedAfter(id)).toEqual({
      type: "zigbee2mqtt",
      name: "remote",
      entry: known,
      button: "1",
      gesture: "single",
      known: true,
      described: "zigbee2mqtt device court-3-remote, action 1_single"
    })
  })

  it("says what is missing when there is no broker, or its password cannot be read, and never starts", async () => {
    api = await startButtonApi(dir, configWith({}))
    const none = await api.call("POST", "/api/buttons/listen", { sources: { mqtt: {} } })
    expect(none).toEqual({ status: 400, json: { error: expect.stringMatching(/no mqtt: block.*mqtt:\/\/host:1883/) } })
    await api.close()

    api = await startButtonApi(dir, configWith({ mqtt: { url: broker.url, username: "bridge", password: { credential: "mqtt-password" } } }))
    const noPassword = await api.call("POST", "/api/buttons/listen", { sources: { mqtt: {} } })
    expect(noPassword.status).toBe(400)
    expect((noPassword.json as { error: string }).error).toMatch(/^mqtt: .*mqtt\.password/)
    // A broker the page names gets nothing of the config's credentials, and is reached.
    await listenOnBroker({ sources: { mqtt: { url: broker.url.replace("127.0.0.1", "localhost") } } })
    expect((await api.call("POST", "/api/buttons/listen", { sources: {} })).status).toBe(400)
    expect((await api.call("POST", "/api/buttons/listen", { sources: { mqtt: {}, bluetooth: {} } })).status).toBe(400)
  })
})
