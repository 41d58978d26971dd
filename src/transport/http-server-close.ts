import type { Server } from "node:http"
import { Effect } from "effect"

/** Closes an HTTP server and waits for it; the status page's and the setup page's servers alike. */
export const closeHttpServer = (server: Server): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    server.close(() => resume(Effect.void))
    // A browser tab keeps its connection alive: without this, close() waits for it.
    server.closeAllConnections()
  })
