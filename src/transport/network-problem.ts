/**
 * A socket error as a technician can act on it: what happened, and where to look.
 * Node's messages ("connect ECONNREFUSED 192.168.1.50:4001") name the errno only.
 */
export const networkProblem = (err: unknown, endpoint: string): string => {
  const code = (err as { code?: unknown } | null)?.code
  switch (code) {
    case "ECONNREFUSED":
      return `${endpoint} refused the connection: nothing listens on that port (device off, wrong port, or a converter not in TCP server mode?)`
    case "ETIMEDOUT":
      return `${endpoint} did not answer (wrong address, device off, or cable unplugged?)`
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${endpoint} is unreachable from this machine (wrong address or network, or cable unplugged?)`
    case "ECONNRESET":
      return `${endpoint} reset the connection (a converter that allows one client may have given the port to another)`
    case "EADDRINUSE":
      return `cannot listen on ${endpoint}: another program (or another place in this config) already uses that port`
    case "EADDRNOTAVAIL":
      return `cannot listen on ${endpoint}: this machine has no such address (use 0.0.0.0, or one of its own addresses)`
    case "EACCES":
      return `cannot listen on ${endpoint}: ports below 1024 need privileges the service does not have (use a port above 1024)`
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot resolve the host name of ${endpoint} (use the device's IP address)`
    default:
      return `${endpoint}: ${err instanceof Error ? err.message : String(err)}`
  }
}
