/**
 * Step 6: "press the button now" listens on every source ticked (the broker, a serial button box,
 * an input device, GPIO lines) at once and hears whichever fires.
 */
import type { ButtonDevicesAnswer, CaptureSources, CaptureStarted, CaptureView, LinkView, PressFound, SerialPortsAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { hms } from "./clock.ts"
import { $, clear, el, onStopPolling, state } from "./core.ts"

const capture: { id: string | null; timer: number | null } = { id: null, timer: null }

export const stopButtonListening = (): void => {
  if (capture.timer) {
    clearTimeout(capture.timer)
    capture.timer = null
  }
  if (capture.id !== null) {
    void api("DELETE", "/api/buttons/listen/" + encodeURIComponent(capture.id))
    capture.id = null
  }
}
onStopPolling(stopButtonListening)

const fillSelect = (id: string, boxId: string, items: ReadonlyArray<{ value: string; text: string }>, empty: string): void => {
  const select = clear($<HTMLSelectElement>(id))
  const box = $(boxId)
  if (items.length === 0) {
    const o = el("option", null, empty)
    o.value = ""
    select.appendChild(o)
    box.checked = false
  }
  items.forEach((i) => {
    const o = el("option", null, i.text)
    o.value = i.value
    select.appendChild(o)
  })
  select.disabled = items.length === 0
  box.disabled = items.length === 0
}

const baseName = (path: string): string => path.replace(/^.*[/]/, "")

/** The lists of step 6: serial adapters no court reads, input devices, GPIO chips. */
export const loadButtonSources = async (): Promise<void> => {
  const [ports, devices] = await Promise.all([api<SerialPortsAnswer>("GET", "/api/serial-ports"), api<ButtonDevicesAnswer>("GET", "/api/buttons/devices")])
  const board = state.link && state.link.serial && state.link.serial.path
  const free = ports.ok ? ports.json.ports.filter((p) => !p.usedBy && p.path !== board) : []
  fillSelect("button-serial", "source-serial", free.map((p) => ({ value: p.path, text: baseName(p.path) + " · " + p.device })), "no free USB serial adapter")
  const d: ButtonDevicesAnswer = devices.ok ? devices.json : { inputs: [], gpiochips: [] }
  fillSelect("button-device", "source-device", d.inputs.map((i) => ({ value: i.path, text: baseName(i.path) })), "no input device")
  fillSelect("gpio-chip", "source-gpio", d.gpiochips.map((c) => ({ value: c.chip, text: c.chip + (c.label ? " · " + c.label : "") })), "no GPIO chip")
}

const gpioLines = (): Array<number> => $("gpio-lines").value.split(/[\s,]+/).filter((x) => x !== "").map(Number)

type Sources = { -readonly [K in keyof CaptureSources]: CaptureSources[K] }

/** Only what is ticked; null when nothing is. */
const buttonSources = (): Sources | null => {
  const sources: Sources = {}
  const ticked = (box: string, select: string) => $(box).checked && $<HTMLSelectElement>(select).value
  if ($("source-mqtt").checked) {
    const url = $("mqtt-url").value.trim()
    sources.mqtt = url ? { url } : {}
  }
  if (ticked("source-serial", "button-serial")) sources.serial = { path: $<HTMLSelectElement>("button-serial").value }
  if (ticked("source-device", "button-device")) sources.device = $<HTMLSelectElement>("button-device").value
  if (ticked("source-gpio", "gpio-chip")) sources.gpio = { chip: $<HTMLSelectElement>("gpio-chip").value, lines: gpioLines() }
  return Object.keys(sources).length > 0 ? sources : null
}

const showButtonLinks = (links: ReadonlyArray<LinkView>): void => {
  const list = clear($("button-links"))
  links.forEach((l) => {
    const li = el("li")
    li.setAttribute("data-link", l.link)
    li.setAttribute("data-state", l.state)
    li.appendChild(el("span", null, l.link + " " + l.target + ": " + l.state + (l.detail ? " (" + l.detail + ")" : "")))
    list.appendChild(li)
  })
}

export const listenForButton = async (): Promise<void> => {
  stopButtonListening()
  $("button-found").hidden = true
  state.pressed = null
  const press = $("button-press")
  press.hidden = false
  showButtonLinks([])
  const sources = buttonSources()
  if (!sources) {
    press.textContent = "Tick a source to listen on first."
    return
  }
  press.textContent = "Starting…"
  const r = await api<CaptureStarted>("POST", "/api/buttons/listen", { sources })
  if (!r.ok) {
    press.textContent = errorOf(r)
    return
  }
  capture.id = r.json.id
  press.textContent = "Press the button now"
  void pollButton()
}

const pollButton = async (): Promise<void> => {
  const id = capture.id
  if (id === null) return
  const r = await api<CaptureView>("GET", "/api/buttons/listen/" + encodeURIComponent(id), undefined, true)
  if (id !== capture.id) return
  if (!r.ok) {
    $("button-press").textContent = errorOf(r)
    capture.id = null
    return
  }
  const view = r.json
  if ("pressed" in view) {
    if (view.pressed) pressed(view.pressed)
    return
  }
  showButtonLinks(view.links)
  if (view.unusable) $("button-press").textContent = "Press the button now (heard " + view.unusable + ")"
  capture.timer = window.setTimeout(pollButton, 700)
}

const pressed = (p: PressFound): void => {
  stopButtonListening()
  state.pressed = p
  $("button-press").hidden = true
  $("button-found").hidden = false
  showButtonLinks([])
  $("button-described").textContent = "Heard at " + hms(Date.now()) + ": " + p.described
}
