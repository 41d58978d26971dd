import { formatHostPort } from "../../domain/host-port.ts"

/**
 * The Host headers the setup server answers: each address it listens on, `localhost` and the
 * machine's name (bare and `.local`, as mDNS names it on a venue network), each with the port.
 * A page of another site whose name an attacker points at 127.0.0.1 (DNS rebinding) sends its own
 * name as Host and is refused before anything else runs.
 */
export const allowedHosts = (addresses: ReadonlyArray<string>, port: number, hostname: string): ReadonlySet<string> => {
  const names = [...addresses, "localhost"]
  const name = hostname.trim().toLowerCase()
  if (name !== "" && name !== "localhost") names.push(name, name.endsWith(".local") ? name : `${name}.local`)
  const hosts = new Set<string>()
  for (const host of names) {
    hosts.add(formatHostPort({ host, port }).toLowerCase())
    // A browser leaves the port out of Host when it is HTTP's own.
    if (port === 80) hosts.add(formatHostPort({ host, port }).toLowerCase().replace(/:80$/u, ""))
  }
  return hosts
}

export const hostAllowed = (host: string | undefined, allowed: ReadonlySet<string>): host is string =>
  host !== undefined && allowed.has(host.toLowerCase())

/** Methods that change nothing: the only ones a request from another origin may make. */
const safeMethods = new Set(["GET", "HEAD"])

/**
 * Every request that may change something carries the Origin of the page that made it
 * (browsers send it on every POST/PUT/DELETE, forms and fetch alike); it must be this very
 * server as the browser reached it. A missing Origin is refused too: a browser always sends
 * one, and a script without a browser has no cookie to abuse. SameSite=Strict is the second wall.
 */
export const originAllowed = (method: string, origin: string | undefined, host: string): boolean =>
  safeMethods.has(method) || (origin !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`)
