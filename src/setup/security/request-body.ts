/**
 * The setup server's body limits; the edge (src/transport/http-edge/json-body.ts) reads and
 * refuses past them (413), and takes API bodies as application/json only (415).
 */

/** API bodies are a place, a few buttons, a token: 64 kB is far beyond any, and holds a flood to little memory. */
export const jsonBodyLimit = 64 * 1024
/** The login form is one short field. */
export const formBodyLimit = 4 * 1024
