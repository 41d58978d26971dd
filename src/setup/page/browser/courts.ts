/**
 * The configured courts: add another, or edit one (the page starts from the place as the file has
 * it and leaves the others alone).
 */
import type { FilePlace, FileScoreboard, PageButton, PageLink } from "./api-types.ts"
import { $, clear, el, entries, goTo, markStep, say, show, state, stepOrder, stopPolling, summary } from "./core.ts"
import { linkKindOf } from "./link-kinds.ts"
import { linkKeys } from "./place-build.ts"
import { showDiff, showProblems } from "./save-view.ts"

/** The file's places as far as it parses: the page reads them as the config's own shape. */
const filePlaces = (): ReadonlyArray<FilePlace> => ((state.config && state.config.places) || []) as ReadonlyArray<FilePlace>

const boardText = (b: FileScoreboard | undefined): string => {
  if (!b) return "no scoreboard"
  const link = b.serial
    ? b.serial.path.replace(/^.*[/]/, "")
    : b.tcp
    ? ("listen" in b.tcp ? "listen " + b.tcp.listen : b.tcp.connect)
    : b.udp
    ? "UDP " + b.udp.listen
    : "MQTT"
  return b.protocol + " · " + link
}

const courtItem = (p: FilePlace): HTMLLIElement => {
  const li = el("li")
  li.setAttribute("data-court", p.key)
  const text = el("span")
  text.appendChild(el("strong", null, p.name || p.key))
  text.appendChild(el("span", "small", " " + p.key + (p.sport ? " · " + p.sport : "") + " · " + boardText(p.scoreboard)))
  li.appendChild(text)
  const edit = el("button", null, "Edit")
  edit.type = "button"
  edit.addEventListener("click", () => editCourt(p))
  li.appendChild(edit)
  return li
}

export const showCourts = (): void => {
  const list = clear($("court-list"))
  const places = filePlaces()
  if (places.length === 0) list.appendChild(el("li", "muted", "No court yet."))
  places.forEach((p) => list.appendChild(courtItem(p)))
}

const resetCourt = (): void => {
  stopPolling()
  Object.assign(state, {
    replaces: null, base: {}, place: null, console: null, maker: null, linkKind: null, link: null, options: {}, pressed: null, buttons: [], actions: []
  })
  stepOrder.forEach((id) => {
    $("step-" + id).hidden = true
    summary(id, "")
  })
  ;["place-key", "place-name", "place-sport"].forEach((id) => {
    $(id).value = ""
  })
  $<HTMLDetailsElement>("place-by-hand").open = false
  $("finder").hidden = true
  $("after-save").hidden = true
  showDiff("")
  showProblems([])
  say("save-message", "")
  $<HTMLButtonElement>("save").disabled = true
}

export const addCourt = (): void => {
  resetCourt()
  goTo("checks")
}

const linkOf = (b: FileScoreboard | undefined): PageLink => {
  const out: PageLink = {}
  linkKeys.forEach((k) => {
    if (b && b[k] !== undefined) Object.assign(out, { [k]: b[k] })
  })
  return out
}

const editCourt = (p: FilePlace): void => {
  resetCourt()
  const board = p.scoreboard || {}
  Object.assign(state, {
    replaces: p.key, base: p, place: { key: p.key, name: p.name, sport: p.sport }, options: Object.assign({}, board.options || {}),
    actions: (p.actions || []).slice(), link: linkOf(board)
  })
  state.console = state.consoles.find((c) => c.protocol === board.protocol) || null
  state.maker = state.console ? state.console.maker : null
  state.linkKind = linkKindOf(state.link)
  const used = state.actions.map((a) => a.source)
  // The file's entries as far as it parses, read as the config's own shape like its places.
  const buttons = ((state.config && state.config.buttons) || []) as ReadonlyArray<PageButton>
  state.buttons = buttons.filter((b) => used.indexOf(b.name) >= 0)
  summary("place", (p.name || p.key) + " · " + (p.sport || ""))
  $("place-key").value = p.key
  $("place-name").value = p.name || ""
  $("place-sport").value = p.sport || ""
  ;(["checks", "place", "console", "link", "buttons"] as const).forEach((id) => {
    show(id)
    entries[id]?.()
  })
  show("listen")
  show("save")
  markStep("place")
  $("step-place").scrollIntoView({ block: "start", behavior: "instant" })
}
