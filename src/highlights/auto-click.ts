import type { ClickBody } from "../service/schemas.ts"

/** The `metadata.source` of a click the bridge made from the score; a button source may not take this name. */
export const autoSource = "auto"

/** Whether a click body was made by an auto-highlight rule rather than a press. */
export const isAutoClick = (body: ClickBody): boolean => body.metadata?.["source"] === autoSource
