/** Step 3: the console by maker then model, with its wiring note. */
import type { Console } from "./api-types.ts"
import { $, choice, clear, el, entries, goTo, state, summary } from "./core.ts"
import { linkKinds } from "./link-kinds.ts"

const makers = (): ReadonlyArray<string> => Array.from(new Set(state.consoles.map((c) => c.maker))).sort()

const showMakers = (): void => {
  const box = clear($("makers"))
  makers().forEach((m) => {
    const b = choice(m, null, m === state.maker, () => {
      state.maker = m
      showMakers()
      showModels()
    })
    b.setAttribute("data-maker", m)
    box.appendChild(b)
  })
}

const showModels = (): void => {
  const box = clear($("models"))
  $("models-label").hidden = state.maker === null
  state.consoles.filter((c) => c.maker === state.maker).forEach((c) => {
    const b = choice(c.model, c.summary, state.console === c, () => pickConsole(c))
    b.setAttribute("data-model", c.protocol)
    box.appendChild(b)
  })
}

const consoleFacts = (c: Console | null): void => {
  const box = clear($("console-facts"))
  if (!c) return
  box.appendChild(el("p", null, c.description))
  box.appendChild(el("h3", null, "Wiring"))
  box.appendChild(el("div", "note", c.wiring))
  const sport = state.place && state.place.sport
  const sports: ReadonlyArray<string> = c.sports
  if (sport && sports.length > 0 && sports.indexOf(sport) < 0) {
    box.appendChild(el("p", "message", "This console does not report " + sport + ": it knows " + sports.join(", ") + "."))
  }
  const next = el("button", "primary", "Next: the link")
  next.type = "button"
  next.addEventListener("click", () => goTo("link"))
  const actions = el("div", "actions")
  actions.appendChild(next)
  box.appendChild(actions)
}

const pickConsole = (c: Console): void => {
  if (state.console !== c) {
    const board = state.base.scoreboard
    state.options = board !== undefined && c.protocol === board.protocol ? Object.assign({}, board.options || {}) : {}
  }
  state.console = c
  state.maker = c.maker
  showModels()
  consoleFacts(c)
  if (state.linkKind && linkKinds(c).indexOf(state.linkKind) < 0) {
    state.linkKind = null
    state.link = null
  }
  summary("console", c.maker + " " + c.model)
}

entries.console = () => {
  showMakers()
  showModels()
  consoleFacts(state.console)
}
