import { InvalidBaseUrl } from "./errors.ts"

/**
 * The bearer token travels in every request, so plain HTTP is allowed only to
 * this machine (the simulator, a local proxy).
 */
export function checkBaseUrl(raw: string): URL | InvalidBaseUrl {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return new InvalidBaseUrl({ url: raw, reason: "not an absolute URL" })
  }
  if (url.username !== "" || url.password !== "") {
    return new InvalidBaseUrl({ url: url.host, reason: "credentials in the URL are not allowed; the token is configured separately" })
  }
  if (url.search !== "" || url.hash !== "") {
    return new InvalidBaseUrl({ url: raw, reason: "a base URL has no query or fragment" })
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return new InvalidBaseUrl({ url: raw, reason: "http:// is allowed only to loopback (127.0.0.0/8, [::1], localhost); use https://" })
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return new InvalidBaseUrl({ url: raw, reason: `unsupported scheme ${url.protocol}; use https://` })
  }
  return url
}

/** `URL` has already normalised the host: IPv4 shorthands expanded, IPv6 bracketed and compressed. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}
