import { Effect, type Scope } from "effect"
import type { SetupEnvironment } from "../setup-environment.ts"
import { ok, problem, type SetupRequest, type SetupRoute } from "../setup-route.ts"
import type { CaptureState } from "./button-capture.ts"
import { deviceDirectories } from "../steps/page-devices.ts"
import { listButtonDevices } from "./button-devices.ts"
import { planCapture } from "./capture-plan.ts"
import { type CaptureTable, makeCaptureTable } from "./capture-table.ts"
import { courtOverlayPreview } from "./court-overlay-preview.ts"

const notFound = problem(404, "no such button capture (it ended, or ran 2 minutes without being asked about): start listening again")

/** `GET /api/buttons/listen/:id`'s answer: `{ pressed }` once a press was seen, else `{ waiting: true }` with how each link is doing. */
export type CaptureView = ReturnType<typeof captureView>
/** `POST /api/buttons/listen`'s answer: the capture to poll. */
export interface CaptureStarted { readonly id: string }
/** `GET /api/buttons/devices`'s answer: the input devices and GPIO chips a capture may open. */
export type ButtonDevicesAnswer = Effect.Success<ReturnType<typeof listButtonDevices>>

const captureView = (state: CaptureState) =>
  state.pressed !== undefined
    ? { pressed: state.pressed }
    : { waiting: true, links: [...state.links.values()], ...(state.unusable === undefined ? {} : { unusable: state.unusable }) }

const start = (environment: SetupEnvironment, table: CaptureTable) => (request: SetupRequest) =>
  Effect.gen(function*() {
    const plan = yield* planCapture(environment, request.body)
    if ("status" in plan) return plan
    const id = yield* table.start(request.session, plan)
    return ok({ id } satisfies CaptureStarted)
  })

/**
 * "Press the button now": listens on the sources the page names and answers with the first press
 * and the `buttons:` entry for it; input devices and GPIO chips for the page's lists; the overlay
 * preview of a place being edited. Scoped: the server's end closes every capture.
 */
export const buttonRoutes = (environment: SetupEnvironment): Effect.Effect<ReadonlyArray<SetupRoute>, never, Scope.Scope> =>
  Effect.map(makeCaptureTable, (table): ReadonlyArray<SetupRoute> => [
    { method: "POST", path: "/api/buttons/listen", handle: start(environment, table) },
    {
      method: "GET",
      path: "/api/buttons/listen/:id",
      handle: (request) =>
        Effect.map(table.look(request.session, request.params.id ?? ""), (state) => state === undefined ? notFound : ok(captureView(state)))
    },
    {
      method: "DELETE",
      path: "/api/buttons/listen/:id",
      handle: (request) => Effect.map(table.stop(request.session, request.params.id ?? ""), (stopped) => stopped ? ok({ stopped: true }) : notFound)
    },
    { method: "GET", path: "/api/buttons/devices", handle: () => Effect.map(listButtonDevices(deviceDirectories()), ok) },
    { method: "POST", path: "/api/overlay-preview", handle: (request) => Effect.sync(() => courtOverlayPreview(request.body)) }
  ])
