/** What a preview or a save shows: the config's problems and the diff of the change. */
import type { PreviewAnswer } from "./api-types.ts"
import { $, clear, el } from "./core.ts"

export const showProblems = (problems: PreviewAnswer["problems"] | undefined): void => {
  const box = clear($("save-problems"))
  ;(problems || []).forEach((p) => {
    const d = el("div")
    d.setAttribute("data-problem", p.path || "")
    d.appendChild(el("span", "path", p.path || "config"))
    d.appendChild(document.createTextNode(p.message + (p.line ? " (line " + p.line + ")" : "")))
    box.appendChild(d)
  })
}

const lineClass = (line: string): string =>
  line.startsWith("@@")
    ? "hunk"
    : line.startsWith("+") && !line.startsWith("+++")
    ? "add"
    : line.startsWith("-") && !line.startsWith("---")
    ? "del"
    : "same"

export const showDiff = (diff: string): void => {
  const pre = clear($("diff"))
  pre.hidden = !diff
  diff.split("\n").forEach((line) => pre.appendChild(el("span", lineClass(line), line === "" ? " " : line)))
}
