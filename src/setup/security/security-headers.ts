/**
 * Sent with every answer of the setup server, the login page and refusals included.
 * The page is its own files only (no inline script or style, nothing from a CDN: the venue
 * may be offline, and an injected value could run nothing); no other site may frame it
 * (clickjacking), read it as another type, get its URL as a referrer or find it in a cache.
 * The referrer policy is `same-origin`, not `no-referrer`: under `no-referrer` Chromium sends a
 * form's POST (the login, the logout) with `Origin: null`, and the CSRF wall refuses it, so nobody
 * could log in. `same-origin` still gives no other site the page's address, and the page's own
 * requests keep their real Origin (test/setup/setup-process-browser.test.ts).
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
  "x-frame-options": "DENY"
}
