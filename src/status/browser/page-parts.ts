/** Elements built with textContent only (error texts come from devices and the network), and the page's words for times. */

export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, text?: unknown): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag)
  if (cls) e.className = cls
  if (text !== undefined && text !== null) e.textContent = String(text)
  return e
}

/** The page's own elements (status-page.ts). */
export const byId = (id: string): HTMLElement => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the status page has no #${id}`)
  return found
}

export const span = (ms: number): string => {
  const m = Math.max(1, Math.round(ms / 60000))
  return m < 60 ? "about " + m + " min" : "about " + Math.floor(m / 60) + " h " + (m % 60) + " min"
}

export const ago = (ms: number | null | undefined, now: number): string => {
  if (ms === null || ms === undefined) return "never"
  const s = Math.max(0, Math.round((now - ms) / 1000))
  if (s < 2) return "just now"
  if (s < 60) return s + " s ago"
  if (s < 3600) return Math.floor(s / 60) + " min ago"
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min ago"
}

export const row = (dl: HTMLElement, label: string, value: Node | string): void => {
  dl.appendChild(el("dt", null, label))
  const dd = el("dd")
  if (value instanceof Node) dd.appendChild(value)
  else dd.textContent = value
  dl.appendChild(dd)
}

export const table = (id: string, rows: ReadonlyArray<ReadonlyArray<Node | string>>): void => {
  const t = byId(id)
  t.replaceChildren()
  rows.forEach((r) => {
    const tr = el("tr")
    r.forEach((v) => {
      const td = el("td")
      if (v instanceof Node) td.appendChild(v)
      else td.textContent = v
      tr.appendChild(td)
    })
    t.appendChild(tr)
  })
}
