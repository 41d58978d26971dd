import { Effect, Stream } from "effect"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import type { Scoreboard } from "../config/schema.ts"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { serialChunks } from "../transport/serial.ts"

/** The received bytes of a place's scoreboard, over its serial line or its MQTT topics. */
export const scoreboardChunks = (
  scoreboard: Scoreboard,
  protocol: ProtocolDefinition<unknown>,
  onState: (state: LinkState) => void
): Stream.Stream<ReceivedChunk, never, MqttConnection> => {
  if (scoreboard.serial !== undefined) {
    const line = scoreboard.serial
    const defaults = protocol.serialDefaults
    return serialChunks({
      path: line.path,
      baudRate: line.baudRate ?? defaults.baudRate,
      dataBits: line.dataBits ?? defaults.dataBits,
      parity: line.parity ?? defaults.parity,
      stopBits: line.stopBits ?? defaults.stopBits
    }, onState)
  }
  const topics = scoreboard.mqtt?.topics ?? []
  return Stream.unwrap(Effect.gen(function*() {
    const mqtt = yield* MqttConnection
    return mqtt.subscribe(topics, { manualAck: true }).pipe(
      Stream.map((message) => ({ bytes: message.payload, receivedAt: message.receivedAt, ack: message.ack }))
    )
  }))
}
