/**
 * The page's shared parts: its state, elements built with textContent only, messages, the steps'
 * order and their entries. The steps register what they do on entry and what stops their polling,
 * so this module imports none of them.
 */
import type { Console, ConfigView, FilePlace, PageAction, PageButton, PageLink, PressFound } from "./api-types.ts"

export type StepId = "checks" | "place" | "console" | "link" | "listen" | "buttons" | "save"
export type LinkKind = "serial" | "tcp-listen" | "tcp-connect" | "udp"

/** The court being set up, as the page builds it step by step. */
export interface PageState {
  config: ConfigView | null
  consoles: ReadonlyArray<Console>
  /** The key of the place being edited; null for a new one. */
  replaces: string | null
  /** The place as the file has it (an edit), or nothing (a new court). */
  base: Partial<FilePlace>
  place: { key: string; name?: string | undefined; sport?: string | undefined } | null
  console: Console | null
  maker: string | null
  linkKind: LinkKind | null
  link: PageLink | null
  options: Record<string, unknown>
  found: Record<string, unknown> | null
  pressed: PressFound | null
  buttons: ReadonlyArray<PageButton>
  actions: Array<PageAction>
}

export const state: PageState = {
  config: null, consoles: [], replaces: null, base: {}, place: null, console: null, maker: null,
  linkKind: null, link: null, options: {}, found: null, pressed: null, buttons: [], actions: []
}

export const stepOrder: ReadonlyArray<StepId> = ["checks", "place", "console", "link", "listen", "buttons", "save"]

/**
 * The page's own elements (app-page.ts): one missing is the page's bug, not the user's. Typed as a
 * field unless the caller names another kind: most of what the steps read are inputs.
 */
export const $ = <E extends HTMLElement = HTMLInputElement>(id: string): E => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the setup page has no #${id}`)
  return found as E
}

export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, text?: unknown): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag)
  if (cls) e.className = cls
  if (text !== undefined && text !== null) e.textContent = String(text)
  return e
}

export const clear = <E extends Element>(node: E): E => {
  node.replaceChildren()
  return node
}

export const say = (id: string, text?: string, kind?: string): void => {
  const m = $(id)
  m.textContent = text || ""
  m.className = "message" + (kind ? " " + kind : "")
}

export const choice = (title: string, small: string | null, chosen: boolean, onPick: () => void): HTMLButtonElement => {
  const b = el("button", "choice" + (chosen ? " chosen" : ""), title)
  b.type = "button"
  if (small) b.appendChild(el("span", "small", small))
  b.addEventListener("click", onPick)
  return b
}

export const show = (id: StepId): HTMLElement => {
  const s = $<HTMLElement>("step-" + id)
  s.hidden = false
  return s
}

export const markStep = (id: StepId): void => {
  const at = stepOrder.indexOf(id)
  stepOrder.forEach((name, i) => {
    const s = $<HTMLElement>("step-" + name)
    s.classList.toggle("current", i === at)
    s.classList.toggle("done", i < at && !s.hidden)
  })
}

/** What each step does when the page goes to it (filled by the steps' modules). */
export const entries: Partial<Record<StepId, () => void>> = {}

export const goTo = (id: StepId): void => {
  show(id)
  markStep(id)
  $<HTMLElement>("step-" + id).scrollIntoView({ block: "start", behavior: "instant" })
  entries[id]?.()
}

export const summary = (id: StepId, text?: string): void => {
  const line = $<HTMLElement>("step-" + id).querySelector("[data-summary]")
  if (line !== null) line.textContent = text || ""
}

/** What stops each step's polling (listening, button capture, the daemon's light): all of it when the session ends or a court starts over. */
const stoppers: Array<() => void> = []
export const onStopPolling = (stop: () => void): void => {
  stoppers.push(stop)
}
export const stopPolling = (): void => stoppers.forEach((stop) => stop())

export const isStep = (id: string | null): id is StepId => stepOrder.some((step) => step === id)
