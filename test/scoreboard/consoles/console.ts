import type { ProtocolName } from "../../../adapters/registry.ts"

/**
 * A simulated controller for one sport: the protocol and options a place is
 * configured with, and the bytes (or MQTT payload) it sends for a board.
 * `encode` may keep state (a console that sends only what changed), so make a
 * fresh one per match.
 */
export interface SimulatedConsole<B> {
  readonly protocol: ProtocolName
  readonly options: Readonly<Record<string, unknown>>
  readonly encode: (board: B) => Uint8Array | string
}
