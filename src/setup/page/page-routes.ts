import { Effect } from "effect"
import type { SetupRoute } from "../setup-route.ts"
import { appPageHtml } from "./app-page.ts"
import { setupScript } from "./setup-script.ts"

/**
 * The app page and its script (the server answers GET / with the login page itself
 * while there is no session, and serves /setup.css to anyone).
 */
export const pageRoutes = (): ReadonlyArray<SetupRoute> => [
  { method: "GET", path: "/", handle: () => Effect.succeed({ status: 200, html: appPageHtml }) },
  { method: "GET", path: "/setup.js", handle: () => Effect.succeed({ status: 200, asset: { type: "text/javascript; charset=utf-8", body: setupScript } }) }
]
