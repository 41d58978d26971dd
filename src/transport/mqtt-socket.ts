import { createConnection, isIP } from "node:net"
import type { Duplex } from "node:stream"
import { connect as tlsConnect } from "node:tls"
import { Redacted } from "effect"

/** The config's TLS settings, PEM contents rather than file paths. */
export interface BrokerTls {
  readonly ca?: string
  readonly cert?: string
  readonly key?: Redacted.Redacted<string>
  readonly rejectUnauthorized?: boolean
}

/** Where the broker is, from its URL: mqtt:// (TCP, port 1883 by default) or mqtts:// (TLS, 8883). */
export interface BrokerAddress {
  readonly tls: boolean
  readonly host: string
  readonly port: number
  /** From the URL's user info, percent-decoded; the config's username and password come first. */
  readonly username?: string
  readonly password?: string
}

/** Throws on a URL that is not mqtt:// or mqtts:// with a host (the config check refuses those first). */
export const brokerAddress = (url: string): BrokerAddress => {
  const parsed = new URL(url)
  if (parsed.protocol !== "mqtt:" && parsed.protocol !== "mqtts:") throw new Error(`not an mqtt:// or mqtts:// URL: ${parsed.protocol}`)
  if (parsed.hostname === "") throw new Error("the broker URL names no host")
  const tls = parsed.protocol === "mqtts:"
  return {
    tls,
    // An IPv6 literal comes in brackets, which a socket does not take.
    host: parsed.hostname.replace(/^\[(.*)\]$/u, "$1"),
    port: parsed.port === "" ? (tls ? 8883 : 1883) : Number(parsed.port),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) })
  }
}

/**
 * Opens one connection to the broker, as mqtt.js's own builders for mqtt:// and mqtts:// do: a
 * TCP socket, or TLS with the config's CA, client certificate and key, checking the broker's
 * name when it is not an IP address.
 */
export const openBrokerSocket = (address: BrokerAddress, tls: BrokerTls | undefined): Duplex => {
  if (!address.tls) return createConnection({ host: address.host, port: address.port })
  return tlsConnect({
    host: address.host,
    port: address.port,
    ...(isIP(address.host) === 0 ? { servername: address.host } : {}),
    ...(tls?.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls?.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls?.key === undefined ? {} : { key: Redacted.value(tls.key) }),
    rejectUnauthorized: tls?.rejectUnauthorized ?? true
  })
}
