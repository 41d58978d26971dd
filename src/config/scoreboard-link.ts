import type { Scoreboard } from "./place.ts"

export type LinkKind = "serial" | "mqtt" | "tcp" | "udp"

/** How a scoreboard is reached, as the status page, logs and `check` name it. */
export interface LinkDescription {
  readonly kind: LinkKind
  /** Device path, topics, or network endpoint: "/dev/serial/by-id/…", "listen 0.0.0.0:4001", "192.168.1.50:4001". */
  readonly target: string
}

export const scoreboardLink = (board: Scoreboard): LinkDescription => {
  if (board.serial !== undefined) return { kind: "serial", target: board.serial.path }
  if (board.tcp !== undefined) {
    const from = board.tcp.from === undefined ? "" : ` from ${board.tcp.from}`
    return { kind: "tcp", target: board.tcp.listen !== undefined ? `listen ${board.tcp.listen}${from}` : board.tcp.connect ?? "" }
  }
  if (board.udp !== undefined) {
    return { kind: "udp", target: `listen ${board.udp.listen}${board.udp.from === undefined ? "" : ` from ${board.udp.from}`}` }
  }
  return { kind: "mqtt", target: (board.mqtt?.topics ?? []).join(", ") }
}

export const describeLink = (board: Scoreboard): string => {
  const { kind, target } = scoreboardLink(board)
  return `${kind === "mqtt" ? "MQTT" : kind} ${target}`
}

/** The frame bound of the link's decoder; MQTT payloads are bounded by the broker. */
export const linkMaxFrameBytes = (board: Scoreboard): number | undefined =>
  (board.serial ?? board.tcp ?? board.udp)?.maxFrameBytes

/** The link delivers whole messages (an MQTT payload, a UDP datagram), not slices of a byte stream. */
export const deliversMessages = (board: Scoreboard): boolean => board.mqtt !== undefined || board.udp !== undefined
