/**
 * Text in a standalone SVG. Team names, rules and error texts come from devices and the
 * network: every one is escaped, and characters XML forbids are dropped, since one of them
 * would make the whole picture fail to parse.
 */

// Control characters other than tab and newlines, lone surrogates and the two non-characters.
const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu

const entities: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Safe inside an element and inside a quoted attribute. */
export const escapeXml = (text: string): string => text.replace(notXml, "").replace(/[&<>"']/gu, (c) => entities[c]!)

/**
 * A generous estimate of a text's width in DejaVu Sans (the widest of the fonts the picture
 * asks for): without a layout engine, text is fitted by this, so it must not underestimate.
 */
export const textWidth = (text: string, fontSize: number, bold = false): number => {
  let em = 0
  for (const c of text) {
    if (/[iljI.,:;'|!()[\]]/u.test(c)) em += 0.36
    else if (c === " ") em += 0.34
    else if (/[mwMW@%]/u.test(c)) em += 0.98
    else if (/[A-Z]/u.test(c)) em += 0.76
    else if (/[a-z0-9–·#+\-_/?*"]/u.test(c)) em += 0.64
    // Accented letters, other scripts, symbols: assume a full em.
    else em += 1
  }
  return em * fontSize * (bold ? 1.1 : 1)
}

/** The text, cut with an ellipsis to fit `maxWidth`; empty when not even one letter fits. */
export const fitText = (text: string, maxWidth: number, fontSize: number, bold = false): string => {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text
  const chars = [...text]
  for (let n = chars.length - 1; n > 0; n--) {
    const cut = `${chars.slice(0, n).join("").trimEnd()}…`
    if (textWidth(cut, fontSize, bold) <= maxWidth) return cut
  }
  return ""
}

/** An element with attributes; `undefined` attributes are left out, values escaped. */
export const tag = (
  name: string,
  attributes: Readonly<Record<string, string | number | undefined>>,
  children?: string
): string => {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(typeof v === "number" ? String(round(v)) : v!)}"`)
    .join("")
  return children === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${children}</${name}>`
}

/** Coordinates to a tenth of a pixel: plenty for the eye, and a much smaller document. */
export const round = (n: number): number => Math.round(n * 10) / 10

/** Ink for text: slate 900, readable on the picture's white and its pale bands. */
export const ink = "#0f172a"
export const muted = "#64748b"

/** A line of text at (x, y), escaped; `more` adds or overrides attributes (fill, anchor, data-*). */
export const text = (x: number, y: number, size: number, content: string, more: Readonly<Record<string, string | number | undefined>> = {}) =>
  tag("text", { x, y, "font-size": size, fill: ink, ...more }, escapeXml(content))

/** Lines of `parts` joined by " · ", wrapped at `maxWidth`. */
export const wrap = (parts: ReadonlyArray<string>, maxWidth: number, size: number): Array<string> => {
  const lines: Array<string> = []
  for (const part of parts) {
    const line = lines.at(-1)
    if (line !== undefined && textWidth(`${line} · ${part}`, size) <= maxWidth) lines[lines.length - 1] = `${line} · ${part}`
    else lines.push(fitText(part, maxWidth, size))
  }
  return lines
}
