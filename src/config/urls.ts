const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/** 127.0.0.0/8, ::1 or localhost: an address that cannot leave the machine. */
export const isLoopback = (host: string) => loopbackHosts.has(host) || /^127\.\d+\.\d+\.\d+$/u.test(host)

export const parseUrl = (text: string): URL | undefined => {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/**
 * Why `text` is not an https:// URL (http:// passes on loopback only), or
 * undefined when it is fine. `plainHttp` says why plain HTTP is refused.
 */
export const httpsProblem = (text: string, example: string, plainHttp: string): string | undefined => {
  const url = parseUrl(text)
  if (url === undefined) return `must be a URL such as ${example}`
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:") {
    return isLoopback(url.hostname) ? undefined : `must use https:// — ${plainHttp}; http:// is allowed only for 127.0.0.1, ::1 or localhost`
  }
  return "must start with https://"
}
