/**
 * Sent with every answer of the setup server, the login page and refusals included.
 * The page is its own files only (no inline script or style, nothing from a CDN: the venue
 * may be offline, and an injected value could run nothing); no other site may frame it
 * (clickjacking), read it as another type, get its URL as a referrer or find it in a cache.
 * The referrer policy is `same-origin`, not `no-referrer`: under `no-referrer` Chromium sends
 * `Origin: null` with the page's own POSTs (the Fetch standard ties a same-origin request's Origin
 * to the policy), and the CSRF wall refuses them all. `same-origin` still gives no other site the
 * page's address, and the page's own requests keep their real Origin.
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
  "x-frame-options": "DENY"
}
