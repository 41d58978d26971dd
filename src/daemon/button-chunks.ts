import { Effect, Stream } from "effect"
import type { Button } from "../config/schema.ts"
import type { LinkState } from "../domain/received.ts"
import { gpiomonChunks } from "../transport/gpiomon.ts"
import { inputDeviceChunks } from "../transport/input-device.ts"
import type { Held } from "../transport/held-messages.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { serialChunks } from "../transport/serial.ts"

/** One push for a button decoder: bytes plus, for MQTT, the topic and retain flag. */
export interface ButtonInput {
  readonly bytes: Uint8Array
  readonly receivedAt: number
  readonly topic?: string
  readonly retained?: boolean
  /** MQTT: acknowledge to the broker once the presses are stored (see MqttMessage.ack). */
  readonly ack?: () => void
  /** MQTT QoS 1: the message's identity and the broker's DUP flag (see MqttMessage.receivedAs). */
  readonly receivedAs?: string
  readonly redelivered?: boolean
  /** MQTT: the broker held it while the bridge was not listening (see MqttMessage.held). */
  readonly held?: Held
}

/** The raw input of a button source, over the link its type uses. */
export const buttonInputs = (button: Button, onState: (state: LinkState) => void): Stream.Stream<ButtonInput, never, MqttConnection> => {
  if (button.mqtt !== undefined) {
    const topics = button.mqtt.topics
    return Stream.unwrap(Effect.gen(function*() {
      const mqtt = yield* MqttConnection
      return mqtt.subscribe(topics, { manualAck: true }).pipe(
        Stream.map((m) => ({
          bytes: m.payload,
          receivedAt: m.receivedAt,
          topic: m.topic,
          retained: m.retained,
          ack: m.ack,
          redelivered: m.redelivered,
          ...(m.receivedAs === undefined ? {} : { receivedAs: m.receivedAs }),
          ...(m.held === undefined ? {} : { held: m.held })
        }))
      )
    }))
  }
  if (button.serial !== undefined) {
    const line = button.serial
    return serialChunks({
      path: line.path,
      baudRate: line.baudRate ?? 9600,
      dataBits: line.dataBits ?? 8,
      parity: line.parity ?? "none",
      stopBits: line.stopBits ?? 1
    }, onState)
  }
  if (button.device !== undefined) return inputDeviceChunks(button.device, onState)
  if (button.gpio !== undefined) {
    return gpiomonChunks({ chip: button.gpio.chip, lines: button.gpio.lines, ...(button.gpio.command === undefined ? {} : { command: button.gpio.command }) }, onState)
  }
  return Stream.empty
}
