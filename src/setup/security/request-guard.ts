import { allowedHosts as hostsOf, machineNames } from "../../transport/http-edge/host-wall.ts"

export { hostAllowed } from "../../transport/http-edge/host-wall.ts"
export { originAllowed } from "../../transport/http-edge/origin-wall.ts"

/**
 * The Host headers the setup server answers: each address it listens on, `localhost` and the
 * machine's name (bare and `.local`, as mDNS names it on a venue network), each with the port.
 * The wall itself is the edge's (src/transport/http-edge), shared with the status page.
 */
export const allowedHosts = (addresses: ReadonlyArray<string>, port: number, hostname: string): ReadonlySet<string> =>
  hostsOf([...addresses, "localhost", ...machineNames(hostname)], port)
