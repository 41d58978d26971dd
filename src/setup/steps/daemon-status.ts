import { Effect, Result, Schema, Struct } from "effect"
import { LastClickJson, LastEntryJson, PlaceEventJson, PlaceSourceJson, PlaceStatusJson } from "../../status/json/place-json.ts"
import { statusReader } from "../../status/json/status-json.ts"
import { fetchDaemonStatus, statusAddress } from "../../upgrade/daemon-status.ts"
import { ok, type SetupRoute } from "../setup-route.ts"
import type { SetupEnvironment } from "../setup-environment.ts"
import { currentConfig } from "./current-config.ts"

const placeFields = PlaceStatusJson.fields

/** The part of the daemon's `/status.json` (its Schema, src/status/json/) the page shows after a save: only these fields. */
const StatusJson = statusReader(Schema.Struct({
  places: Schema.Array(Schema.Struct({
    key: placeFields.key,
    source: PlaceSourceJson,
    lastReadingText: placeFields.lastReadingText,
    lastEntry: Schema.NullOr(LastEntryJson.mapFields(Struct.pick(["answer"]))),
    lastClick: Schema.NullOr(LastClickJson.mapFields(Struct.pick(["pressedAt", "outcome", "text", "videoURL"]))),
    // null: not learned yet; a null key: the service said none runs. Optional, as this reader always took it.
    event: Schema.optionalKey(Schema.NullOr(PlaceEventJson.mapFields(Struct.pick(["key", "homeTeam", "awayTeam"]))))
  }))
}))

type DaemonPlace = (typeof StatusJson.Type)["places"][number]

/** Whether a test press can make a clip: only while an event is open at the court. */
const eventView = (event: DaemonPlace["event"]) =>
  event === undefined || event === null
    ? { open: null }
    : event.key === null
    ? { open: false }
    : { open: true, homeTeam: event.homeTeam, awayTeam: event.awayTeam }

/** One court as the page shows it: the light and its words as on the status page, the first entry's fate, a test press's clip. */
const placeView = (place: DaemonPlace) => ({
  key: place.key,
  light: place.source.badge,
  detail: place.source.detail,
  link: `${place.source.link} ${place.source.target}`,
  reading: place.lastReadingText,
  event: eventView(place.event),
  ...(place.lastEntry === null
    ? {}
    : { lastEntry: { at: place.lastEntry.answer.at, delivered: place.lastEntry.answer.state === "delivered", state: place.lastEntry.answer.state } }),
  ...(place.lastClick === null
    ? {}
    : { lastClip: { pressedAt: place.lastClick.pressedAt, outcome: place.lastClick.outcome, text: place.lastClick.text, videoURL: place.lastClick.videoURL } })
})

/** `GET /api/daemon`'s answer: the courts as the running daemon shows them, or why it could not be read. */
export type DaemonAnswer =
  | { readonly reachable: true; readonly places: ReadonlyArray<ReturnType<typeof placeView>> }
  | { readonly reachable: false; readonly detail: string; readonly places: readonly [] }

const unreachable = (detail: string) => ok({ reachable: false, detail, places: [] } satisfies DaemonAnswer)

/** The running daemon's status page, read where the config's status.listen says, reduced to what the setup page shows. */
export const daemonStatusRoute = (environment: SetupEnvironment): SetupRoute => ({
  method: "GET",
  path: "/api/daemon",
  handle: () =>
    Effect.gen(function*() {
      const loaded = yield* currentConfig(environment)
      if (Result.isFailure(loaded)) return unreachable(`the config does not load, so the status page's address is not known: ${loaded.failure}`)
      const listen = loaded.success.config.status.listen
      const at = statusAddress(listen)
      const fetched = yield* fetchDaemonStatus(listen)
      if (fetched._tag === "Refused") return unreachable(`the daemon is not running: nothing answers at ${at} (start it, or wait for the reload)`)
      if (fetched._tag === "Failed") return unreachable(`the daemon's status page at ${at} does not answer: ${fetched.detail}`)
      if (fetched.status !== 200) return unreachable(`the daemon's status page at ${at} answered HTTP ${fetched.status}`)
      const status = yield* Effect.result(Schema.decodeUnknownEffect(Schema.fromJsonString(StatusJson))(fetched.body))
      if (Result.isFailure(status)) return unreachable(`what answers at ${at} is not the bridge's status page`)
      return ok({ reachable: true, places: status.success.places.map(placeView) } satisfies DaemonAnswer)
    })
})
