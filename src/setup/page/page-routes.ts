import { Effect } from "effect"
import { problem, type SetupRoute } from "../setup-route.ts"
import { appPageHtml } from "./app-page.ts"
import { setupScript } from "./setup-script.ts"

// A checkout without esbuild cannot bundle the page's modules: the log says so, as the answer does.
const script = Effect.tryPromise({ try: setupScript, catch: (cause) => (cause instanceof Error ? cause.message : String(cause)) }).pipe(
  Effect.matchEffect({
    onFailure: (error) => Effect.as(Effect.logError(error), problem(500, error)),
    onSuccess: (body) => Effect.succeed({ status: 200, asset: { type: "text/javascript; charset=utf-8", body } })
  })
)

/**
 * The app page and its script (the server answers GET / with the login page itself
 * while there is no session, and serves /setup.css to anyone).
 */
export const pageRoutes = (): ReadonlyArray<SetupRoute> => [
  { method: "GET", path: "/", handle: () => Effect.succeed({ status: 200, html: appPageHtml }) },
  { method: "GET", path: "/setup.js", handle: () => script }
]
