/** Step 4: the link: a serial adapter by its stable name, or a network address. */
import type { LinkKind } from "./core.ts"
import type { PageLink, SerialLink, SerialPortEntry, SerialPortsAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { $, choice, clear, el, entries, goTo, state, summary } from "./core.ts"
import { linkKindOf, linkKinds, linkText } from "./link-kinds.ts"

type NetworkKind = Exclude<LinkKind, "serial">

const linkWords: Record<LinkKind, string> = {
  serial: "USB serial adapter",
  "tcp-listen": "Network: the console connects here",
  "tcp-connect": "Network: connect to the console",
  udp: "Network: UDP"
}
const linkHelp: Record<NetworkKind, readonly [string, string, string]> = {
  "tcp-listen": ["Address and port to listen on", "0.0.0.0:4001", "The console (or its converter) connects to the bridge on this port."],
  "tcp-connect": ["The console's address and port", "192.168.1.50:4001", "The bridge connects to the console or a serial-to-Ethernet converter in TCP server mode."],
  udp: ["Address and port to listen on", "0.0.0.0:4002", "The console sends its datagrams to this port."]
}
type BaudRate = NonNullable<SerialLink["baudRate"]>
// The config's own line speeds (SerialLine's baudRate), the usual ones first: the page offers no speed the config refuses.
const baudRates: ReadonlyArray<BaudRate> = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200]

const showLinkKinds = (): void => {
  const box = clear($("link-kinds"))
  if (!state.console) return
  linkKinds(state.console).forEach((k) => {
    const b = el("button", k === state.linkKind ? "chosen" : "", linkWords[k])
    b.type = "button"
    b.setAttribute("data-link", k)
    b.addEventListener("click", () => {
      state.linkKind = k
      showLinkKinds()
      showLinkForm()
    })
    box.appendChild(b)
  })
}

const addressOf = (k: NetworkKind, l: PageLink): string | undefined => {
  if (k === "udp") return l.udp && l.udp.listen
  if (k === "tcp-listen") return l.tcp && "listen" in l.tcp ? l.tcp.listen : undefined
  return l.tcp && "connect" in l.tcp ? l.tcp.connect : undefined
}

const showLinkForm = (): void => {
  const k = state.linkKind
  $("link-serial").hidden = k !== "serial"
  $("link-network").hidden = !k || k === "serial"
  if (k === "serial") {
    void loadPorts()
    baudChoices()
    return
  }
  if (!k) return
  const h = linkHelp[k]
  $("link-address-label").textContent = h[0]
  $("link-address").placeholder = h[1]
  $("link-address-help").textContent = h[2]
  $("link-address").value = addressOf(k, state.link || {}) || ""
}

const usualBaud = (): number => (state.console ? state.console.serial.baudRate : 9600)

const baudChoices = (): void => {
  const select = clear($<HTMLSelectElement>("baud-rate"))
  const chosen = (state.link && state.link.serial && state.link.serial.baudRate) || usualBaud()
  baudRates.forEach((b) => {
    const o = el("option", null, b + (b === usualBaud() ? " (the console's usual)" : ""))
    o.value = String(b)
    o.selected = b === chosen
    select.appendChild(o)
  })
}

const portChoice = (p: SerialPortEntry, current: string | undefined): HTMLButtonElement => {
  // The court being edited may keep its own adapter ("place court-1 scoreboard").
  const used = p.usedBy && !(state.replaces && p.usedBy.indexOf("place " + state.replaces + " ") === 0)
  const b = choice(p.path.replace(/^.*[/]/, ""), p.device + (p.usedBy ? " · used by " + p.usedBy : ""), p.path === current, () => {
    state.link = { serial: { path: p.path } }
    void loadPorts()
  })
  b.setAttribute("data-port", p.path)
  if (used) b.disabled = true
  return b
}

export const loadPorts = async (): Promise<void> => {
  const box = clear($("serial-ports"))
  const r = await api<SerialPortsAnswer>("GET", "/api/serial-ports")
  if (!r.ok) {
    box.appendChild(el("p", "message", errorOf(r)))
    return
  }
  if (r.json.ports.length === 0) box.appendChild(el("p", "message", "No USB serial adapter is plugged in. Plug it in, then Look again."))
  const current = state.link && state.link.serial && state.link.serial.path
  r.json.ports.forEach((p) => box.appendChild(portChoice(p, current || undefined)))
}

const linkFromForm = (): PageLink | null => {
  const k = state.linkKind
  if (k === "serial") {
    const path = state.link && state.link.serial && state.link.serial.path
    if (!path) return null
    const s: SerialLink = { path }
    const picked = Number($<HTMLSelectElement>("baud-rate").value)
    const baud = baudRates.find((b) => b === picked)
    return { serial: baud !== undefined && baud !== usualBaud() ? { ...s, baudRate: baud } : s }
  }
  const address = $("link-address").value.trim()
  if (!address) return null
  return k === "udp" ? { udp: { listen: address } } : k === "tcp-listen" ? { tcp: { listen: address } } : { tcp: { connect: address } }
}

/** A message beside a button, made the first time one is needed. */
const alertIn = (buttonId: string, text: string): void => {
  const parent = $(buttonId).parentNode as HTMLElement
  let m = parent.querySelector(".message")
  if (!m) {
    m = el("p", "message")
    parent.appendChild(m)
  }
  m.textContent = text
}

export const linkDone = (): void => {
  const link = linkFromForm()
  if (!link) {
    alertIn("link-done", state.linkKind === "serial" ? "Pick the adapter first." : "Type the address first.")
    return
  }
  state.link = link
  summary("link", linkText(link))
  goTo("listen")
}

entries.link = () => {
  if (!state.linkKind && state.console) state.linkKind = linkKindOf(state.link) || linkKinds(state.console)[0] || null
  showLinkKinds()
  showLinkForm()
}
