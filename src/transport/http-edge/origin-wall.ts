/** Methods that change nothing: the only ones a request from another origin may make. */
const safeMethods = new Set(["GET", "HEAD"])

export const isRead = (method: string): boolean => safeMethods.has(method)

/**
 * Every request that may change something carries the Origin of the page that made it
 * (browsers send it on every POST/PUT/DELETE, forms and fetch alike); it must be this very
 * server as the browser reached it. A missing Origin is refused too: a browser always sends
 * one, and a script without a browser has no cookie to abuse.
 */
export const originAllowed = (method: string, origin: string | undefined, host: string): boolean =>
  isRead(method) || (origin !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`)
