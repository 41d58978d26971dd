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
  const characters = urlCharactersProblem(text)
  if (characters !== undefined) return characters
  const url = parseUrl(text)
  if (url === undefined) return `must be a URL such as ${example}`
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:") {
    return isLoopback(url.hostname) ? undefined : `must use https:// — ${plainHttp}; http:// is allowed only for 127.0.0.1, ::1 or localhost`
  }
  return "must start with https://"
}

// C0, space, DEL, C1 and every Unicode space: none belongs in a URL, and one inside the userinfo hides it from redaction.
const unsafeInUrl = /[\u0000-\u0020\u007f-\u009f\s]/u

/** Why `text` cannot be a URL of the config (a control character or blank in it), or undefined. */
export const urlCharactersProblem = (text: string): string | undefined =>
  unsafeInUrl.test(text)
    ? "contains a space, tab, line break or other control character: write the URL without them (percent-encode them in a password, e.g. %09 for a tab)"
    : undefined

const plainUser = /^[A-Za-z0-9._~%!$&'()*+,;=-]*$/u

const redactedUserinfo = (userinfo: string): string => {
  const colon = userinfo.indexOf(":")
  const user = colon === -1 ? userinfo : userinfo.slice(0, colon)
  if (!plainUser.test(user)) return "***"
  return colon === -1 ? user : `${user}:***`
}

/**
 * Every URL's password out of `text`, however the URL is written: the userinfo is all between
 * `://` and the last `@` before the next `/` or line end, so a tab, space or quote inside the
 * password does not end it early. `mqtt://user:secret@host` → `mqtt://user:***@host`; a user
 * name that is not plain URL text goes too.
 */
export const withoutUrlPasswords = (text: string): string => {
  let result = ""
  let from = 0
  for (let at = text.indexOf("://", from); at !== -1; at = text.indexOf("://", from)) {
    const start = at + 3
    const slash = text.slice(start).search(/[/\n\r]/u)
    const end = slash === -1 ? text.length : start + slash
    const atSign = text.lastIndexOf("@", end - 1)
    if (atSign < start) {
      result += text.slice(from, start)
      from = start
      continue
    }
    result += `${text.slice(from, start)}${redactedUserinfo(text.slice(start, atSign))}@`
    from = atSign + 1
  }
  return result + text.slice(from)
}

/** `scheme://host:port` as written, lower case (mqtt:// has no URL origin); the text itself when it is no URL. */
export const originOf = (text: string): string => {
  const url = parseUrl(text)
  return url === undefined ? text : `${url.protocol}//${url.host}`.toLowerCase()
}
