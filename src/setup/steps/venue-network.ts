import { BlockList, isIP } from "node:net"
import { networkInterfaces } from "node:os"

/** The machine's interfaces as os.networkInterfaces() gives them; tests pass their own. */
export type Interfaces = ReturnType<typeof networkInterfaces>

const family = (address: string): "ipv4" | "ipv6" => (isIP(address) === 6 ? "ipv6" : "ipv4")

const bare = (host: string) => host.replace(/^\[(.*)\]$/u, "$1").replace(/%.*$/u, "")

export const isLoopback = (host: string): boolean => {
  const address = bare(host)
  if (address === "localhost") return true
  const loopback = new BlockList()
  loopback.addSubnet("127.0.0.0", 8, "ipv4")
  loopback.addAddress("::1", "ipv6")
  loopback.addSubnet("::ffff:127.0.0.0", 104, "ipv6")
  return isIP(address) !== 0 && loopback.check(address, family(address))
}

/** The networks the machine's own interfaces are on (address and netmask): the venue's, and loopback. */
const ownNetworks = (interfaces: Interfaces): BlockList => {
  const networks = new BlockList()
  for (const info of Object.values(interfaces).flat()) {
    if (info === undefined || info.cidr === null) continue
    const [address, prefix] = info.cidr.split("/") as [string, string]
    networks.addSubnet(bare(address), Number(prefix), info.family === "IPv6" ? "ipv6" : "ipv4")
  }
  return networks
}

/**
 * Why the setup server may not reach `host`, or undefined when it may: only loopback or an
 * address inside one of the networks the machine itself is on (the venue's). A name other than
 * localhost is refused: what it resolves to could change between the check and the connection.
 */
export const outsideVenue = (host: string, interfaces: Interfaces = networkInterfaces()): string | undefined => {
  if (isLoopback(host)) return undefined
  const address = bare(host)
  if (isIP(address) === 0) return `${host} is a name: give the device's IP address on the venue's network (e.g. 192.168.1.50)`
  return ownNetworks(interfaces).check(address, family(address))
    ? undefined
    : `${host} is not on a network this machine is on (nor loopback): the setup page reaches only the venue's own devices`
}

/** One of the machine's own addresses (a listener can bind it). */
export const isOwnAddress = (host: string, interfaces: Interfaces = networkInterfaces()): boolean =>
  Object.values(interfaces).flat().some((info) => info !== undefined && bare(info.address) === bare(host))

/** A listening step's port: below 1024 is the system's (and needs privileges the setup page does not have). */
export const portProblem = (port: number): string | undefined =>
  port < 1024 ? `port ${port} is below 1024, a system port: pick one from 1024 (the consoles' usual 4001, 4002 …)` : undefined
