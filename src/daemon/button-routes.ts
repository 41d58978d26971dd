import { clickSettingsOf } from "../clicks/place-click-settings.ts"
import type { PlaceClickSettings, PressAction } from "../clicks/press-handler.ts"
import type { Config } from "../config/schema.ts"
import type { ButtonEvent } from "../domain/button.ts"

/** One place action a (source, button, gesture) is mapped to by the config. */
export interface Route {
  readonly settings: PlaceClickSettings
  readonly action: PressAction
  readonly button: string | undefined
  readonly gesture: string
  readonly feedbackTopic: string | undefined
}

/** Every (source, button, gesture) → place action the config names, by source. */
export const routesOf = (config: Config): ReadonlyMap<string, ReadonlyArray<Route>> => {
  const routes = new Map<string, Array<Route>>()
  for (const place of config.places) {
    const settings = clickSettingsOf(place)
    for (const action of place.actions ?? []) {
      const list = routes.get(action.source) ?? []
      list.push({
        settings,
        action: action.do === "undo" ? { do: "undo" } : { do: "highlight", team: action.team ?? "none" },
        button: action.button,
        gesture: action.gesture,
        feedbackTopic: place.clicks?.feedbackTopic
      })
      routes.set(action.source, list)
    }
  }
  return routes
}

/** The routes a press takes: its source's, for its gesture, on its button or any button. */
export const routesFor = (routes: ReadonlyMap<string, ReadonlyArray<Route>>, press: ButtonEvent): ReadonlyArray<Route> =>
  (routes.get(press.source) ?? []).filter((r) => r.gesture === press.gesture && (r.button === undefined || r.button === press.button))
