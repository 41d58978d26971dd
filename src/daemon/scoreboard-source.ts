import { Effect, Stream } from "effect"
import type { ProtocolDefinition } from "../../adapters/decoder.ts"
import type { Scoreboard } from "../config/schema.ts"
import { parseHostPort } from "../domain/host-port.ts"
import type { LinkState, ReceivedChunk } from "../domain/received.ts"
import { MqttConnection } from "../transport/mqtt.ts"
import { serialChunks } from "../transport/serial.ts"
import { tcpConnectChunks } from "../transport/tcp-connect.ts"
import { tcpListenChunks } from "../transport/tcp-listen.ts"
import { udpListenChunks } from "../transport/udp-listen.ts"

/** The received bytes of a place's scoreboard, over its serial line, TCP, UDP or its MQTT topics. */
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
  const tcp = scoreboard.tcp
  if (tcp !== undefined) {
    const quietMs = tcp.quietSeconds * 1000
    return tcp.listen !== undefined
      ? tcpListenChunks({ endpoint: parseHostPort(tcp.listen), quietMs, ...(tcp.from === undefined ? {} : { from: tcp.from }) }, onState)
      : tcpConnectChunks({ endpoint: parseHostPort(tcp.connect!), quietMs }, onState)
  }
  const udp = scoreboard.udp
  if (udp !== undefined) {
    return udpListenChunks({
      endpoint: parseHostPort(udp.listen),
      quietMs: udp.quietSeconds * 1000,
      ...(udp.from === undefined ? {} : { from: udp.from })
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
