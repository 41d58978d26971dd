import { hostname as machineName, type NetworkInterfaceInfo, networkInterfaces } from "node:os"
import { parseHostPort } from "../domain/host-port.ts"
import { allowedHosts, machineNames } from "../transport/http-edge/host-wall.ts"

type Interfaces = NodeJS.Dict<ReadonlyArray<NetworkInterfaceInfo>>

const wildcards = new Set(["0.0.0.0", "::", "[::]", ""])

export const statusHostRefusal =
  "this status page answers only at its own addresses (status.listen, localhost, 127.0.0.1, [::1], this machine's name or, listening on every address, one of them): open it by one of those (Host refused)"

/**
 * The Host headers the status page answers, as setup's: its listen address, loopback by name and
 * number, the machine's name (bare and `.local`), each with the port. Listening on a wildcard
 * (0.0.0.0, ::), also each of the machine's own addresses: how a central Prometheus scrapes it
 * (deploy/prometheus/central-pull.yml names the bridges by address). A page of another site
 * whose name is pointed at 127.0.0.1 (DNS rebinding) is refused before it reads /status.json.
 */
export const statusHosts = (listen: string, interfaces: Interfaces = networkInterfaces(), hostname: string = machineName()): ReadonlySet<string> => {
  const { host, port } = parseHostPort(listen)
  const names = [host, "localhost", "127.0.0.1", "::1", ...machineNames(hostname)]
  if (wildcards.has(host)) {
    for (const info of Object.values(interfaces).flatMap((infos) => infos ?? [])) names.push(info.address)
  }
  return allowedHosts(names, port)
}

/**
 * The allowed Hosts, read again at most every `everyMs`: on a wildcard an address the machine
 * gets later (DHCP, the VPN coming up) is answered without a restart.
 */
export const followedStatusHosts = (listen: string, everyMs = 10_000): () => ReadonlySet<string> => {
  let hosts = statusHosts(listen)
  let readAt = Date.now()
  return () => {
    if (Date.now() - readAt >= everyMs) {
      hosts = statusHosts(listen)
      readAt = Date.now()
    }
    return hosts
  }
}
