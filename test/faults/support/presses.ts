import type { MqttClient } from "mqtt"
import { eventually } from "../../../scripts/support/eventually.ts"
import { mqttPlace, remoteTopic, type World } from "./world.ts"

/**
 * A zigbee2mqtt remote pressed every `everyMs` at QoS 1, whatever state the daemon or broker
 * is in. A press counts as sent once the broker acknowledged it (publishAsync resolved):
 * from then on the broker owes it to the daemon's persistent session.
 */
export interface Presser {
  readonly acknowledged: ReadonlyArray<number>
  /** Stops pressing and waits for the presses still in flight to be acknowledged. */
  readonly stop: () => Promise<void>
}

export const pressEvery = (publisher: MqttClient, everyMs: number, already: ReadonlyArray<number> = []): Presser => {
  const acknowledged: Array<number> = [...already]
  const inFlight = new Set<Promise<unknown>>()
  const timer = setInterval(() => {
    const sentAt = Date.now()
    const publish = publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single", linkquality: 120 }), { qos: 1 })
      .then(() => acknowledged.push(sentAt))
      .catch(() => undefined)
      .finally(() => inFlight.delete(publish))
    inFlight.add(publish)
  }, everyMs)
  return {
    acknowledged,
    stop: async () => {
      clearInterval(timer)
      await Promise.all([...inFlight])
    }
  }
}

/**
 * Starts the daemon and waits until a first press has become a moment: only from then on does
 * the broker hold a persistent session for it, so only presses after this are owed to it (a
 * broker drops messages for a client id it has never seen subscribe). The press is published once
 * the broker granted the daemon's subscription, not at "MQTT connected": a button stream that
 * starts after the connection subscribes a moment later, and a press before that was lost (a
 * flake seen under load). Returns the press's time.
 */
export const primeSession = async (world: World): Promise<number> => {
  const from = world.daemon.logs().length
  world.daemon.start()
  await world.daemon.waitForLog(new RegExp(`MQTT subscribed to .*${remoteTopic}`), { from })
  const sentAt = Date.now()
  await world.publisher.publishAsync(remoteTopic, JSON.stringify({ action: "single" }), { qos: 1 })
  await eventually("the first press to become a moment", async () => {
    const event = (await world.control.state()).events.find((e) => e.key === world.eventKeys[mqttPlace])
    return (event?.moments.length ?? 0) > 0 ? true : undefined
  }, { timeoutMs: 15_000, intervalMs: 100 })
  return sentAt
}
