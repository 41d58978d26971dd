/** Step 2: the court from the service's list, or typed by hand. */
import type { ServicePlace, ServicePlacesAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { $, choice, clear, entries, goTo, say, state, summary } from "./core.ts"

const configured = (key: string): boolean => ((state.config && state.config.places) || []).some((p) => (p as { key?: unknown }).key === key)

const pickPlace = (p: { key: string; name: string; sport: string | null }): void => {
  state.place = { key: p.key, name: p.name || undefined, sport: p.sport || undefined }
  summary("place", (p.name || p.key) + " · " + (p.sport || "sport from the service"))
  goTo("console")
}

const placeChoice = (p: ServicePlace): HTMLButtonElement => {
  const mine = state.place !== null && state.place.key === p.key
  const taken = configured(p.key) && p.key !== state.replaces
  const note = p.key + " · " + p.sport + (taken ? " · already set up: edit it from the list above" : "")
  const b = choice(p.name || p.key, note, mine, () => pickPlace(p))
  b.setAttribute("data-place", p.key)
  if (taken) b.disabled = true
  return b
}

const loadServicePlaces = async (): Promise<void> => {
  const box = clear($("service-places"))
  say("places-message", "Asking the service…", "info")
  const r = await api<ServicePlacesAnswer>("GET", "/api/service-places")
  if (!r.ok) {
    say("places-message", errorOf(r) + " You can type the court below.", "")
    $<HTMLDetailsElement>("place-by-hand").open = true
    return
  }
  say("places-message", "")
  r.json.places.forEach((p) => box.appendChild(placeChoice(p)))
}

export const placeTyped = (): void => {
  const key = $("place-key").value.trim()
  if (!key) {
    say("places-message", "Type the place key the service uses.", "")
    return
  }
  pickPlace({ key, name: $("place-name").value.trim(), sport: $("place-sport").value.trim() })
}

entries.place = () => void loadServicePlaces()
