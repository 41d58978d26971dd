import type { ObservedField } from "./layout-observation.ts"

/** How many bytes a field may take: scores and period 1–3 (up to 999), the clock 3–5 (`756`, ` 7:56`, `12:00`). */
export const widthsOf: Readonly<Record<ObservedField, { readonly min: number; readonly max: number }>> = {
  home: { min: 1, max: 3 },
  away: { min: 1, max: 3 },
  period: { min: 1, max: 3 },
  clock: { min: 3, max: 5 }
}

/** How wide the options block reads a field: room for a three-digit score and `MMSS` / `MM:SS`, never a wider period. */
export const blockWidthOf = (field: ObservedField, core: string): number =>
  field === "period" ? core.length : field === "clock" ? (/[:.]/u.test(core) ? 5 : 4) : 3

const blank = " "

/** The text with the blanks around it removed; blanks only (0x20), as consoles pad. */
export const trimBlanks = (text: string): string => {
  let start = 0
  let end = text.length
  while (start < end && text[start] === blank) start++
  while (end > start && text[end - 1] === blank) end--
  return text.slice(start, end)
}

const digits = /^\d+$/u
const pad2 = (n: number) => String(n).padStart(2, "0")

/** The ways a board writes the clock the technician read: `MMSS` (blank- or zero-padded), `M:SS`, `SSt`, `SS.t`. */
const clockForms = (value: string): ReadonlySet<string> => {
  const minutes = /^(\d{1,2}):(\d{2})$/u.exec(value)
  if (minutes !== null) {
    const m = Number(minutes[1])
    const ss = minutes[2]!
    return new Set([`${m}:${ss}`, `${pad2(m)}:${ss}`, `${m}${ss}`, `${pad2(m)}${ss}`])
  }
  const [s, t] = value.split(".") as [string, string]
  const seconds = Number(s)
  return new Set([`${seconds}${t}`, `${pad2(seconds)}${t}`, `${seconds}.${t}`, `${pad2(seconds)}.${t}`])
}

/** Whether `text` (a byte range of a frame) shows `value` of `field`: digits contiguous, blanks around ignored. */
export const readsAs = (field: ObservedField, value: string, text: string): boolean => {
  const shown = trimBlanks(text)
  if (shown === "") return false
  switch (field) {
    case "home":
    case "away":
      return digits.test(shown) && Number(shown) === Number(value)
    case "period":
      return digits.test(value) ? digits.test(shown) && Number(shown) === Number(value) : shown.toUpperCase() === value
    case "clock":
      return clockForms(value).has(shown)
  }
}

/**
 * Whether `text` could be this field in some frame: blank, or a value of the field's kind. A range
 * that reads garbage in another frame is a coincidence, not the field (used to choose between
 * ranges that all read what was noted).
 */
export const isPlausible = (field: ObservedField, text: string): boolean => {
  const shown = trimBlanks(text)
  if (shown === "") return true
  switch (field) {
    case "home":
    case "away":
      return digits.test(shown)
    case "period":
      return digits.test(shown) || /^[A-Za-z]$/u.test(shown)
    case "clock":
      return /^[\d:.]+$/u.test(shown)
  }
}

/** What a range shows, for the report: `3`, `7:56`, or `(blank)`. */
export const shownText = (text: string): string => {
  const shown = trimBlanks(text)
  return shown === "" ? "(blank)" : shown
}
