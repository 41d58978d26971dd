import { createTwoFilesPatch } from "diff"
import { basename } from "node:path"
import { redactedText } from "./secret-redaction.ts"

/**
 * The change a save makes, as a unified diff of config.yaml (3 lines of context), what the
 * page shows before the technician saves. Secret values are taken out of both sides first.
 */
export const configDiff = (path: string, before: string, after: string, secrets: ReadonlyArray<string>): string => {
  if (before === after) return ""
  const name = basename(path)
  const patch = createTwoFilesPatch(name, name, redactedText(before, secrets), redactedText(after, secrets), "now", "after the save", { context: 3 })
  // The first line is jsdiff's "Index:"/separator header; the page wants the hunks and their file lines.
  return patch.split("\n").filter((line) => !/^=+$/u.test(line)).join("\n")
}
