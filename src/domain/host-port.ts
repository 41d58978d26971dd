/** A network endpoint as configured: "0.0.0.0:4001", "192.168.1.50:4001", "[::1]:8370". */
export interface HostPort {
  readonly host: string
  readonly port: number
}

const shape = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/u

/** Why `text` is not host:port, or undefined when it is. */
export const hostPortProblem = (text: string, example: string): string | undefined => {
  const match = shape.exec(text)
  const port = match === null ? NaN : Number(match[2])
  return port >= 1 && port <= 65535 ? undefined : `must be host:port, e.g. ${example} (port 1–65535)`
}

/** Splits a checked "host:port"; an IPv6 host loses its brackets, as node:net wants it. */
export const parseHostPort = (text: string): HostPort => {
  const at = text.lastIndexOf(":")
  return { host: text.slice(0, at).replace(/^\[(.*)\]$/u, "$1"), port: Number(text.slice(at + 1)) }
}

/** The endpoint as people write it: IPv6 in brackets. */
export const formatHostPort = ({ host, port }: HostPort): string => `${host.includes(":") ? `[${host}]` : host}:${port}`

/** The JSON Schema pattern of `hostPortProblem`'s shape, for editors. */
export const hostPortPattern = "^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+):[0-9]{1,5}$"

/** "::ffff:192.168.1.60", as a dual-stack socket reports an IPv4 peer, as people write it. */
export const plainAddress = (address: string | undefined): string => (address ?? "?").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/u, "$1")
