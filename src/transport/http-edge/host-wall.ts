import { formatHostPort } from "../../domain/host-port.ts"

/**
 * The names a browser may reach a server by, as Host headers with the port: each given name or
 * address, lower case. A page of another site whose name an attacker points at 127.0.0.1 (DNS
 * rebinding) sends its own name as Host and is refused before anything else runs.
 */
export const allowedHosts = (names: ReadonlyArray<string>, port: number): ReadonlySet<string> => {
  const hosts = new Set<string>()
  for (const host of names) {
    const formatted = formatHostPort({ host, port }).toLowerCase()
    hosts.add(formatted)
    // A browser leaves the port out of Host when it is HTTP's own.
    if (port === 80) hosts.add(formatted.replace(/:80$/u, ""))
  }
  return hosts
}

/** The machine's name bare and `.local` (as mDNS names it on a venue network); none for an empty name or localhost. */
export const machineNames = (hostname: string): ReadonlyArray<string> => {
  const name = hostname.trim().toLowerCase()
  if (name === "" || name === "localhost") return []
  return [name, name.endsWith(".local") ? name : `${name}.local`]
}

export const hostAllowed = (host: string | undefined, allowed: ReadonlySet<string>): host is string =>
  host !== undefined && allowed.has(host.toLowerCase())
