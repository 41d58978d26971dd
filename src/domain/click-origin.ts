/**
 * Who made a click, as its `metadata.source` says: a button source's name, or the bridge itself
 * from the score. The config, delivery, clicks, the timeline and the CLI all ask.
 */

/** The `metadata.source` of a click the bridge made from the score; a button source may not take this name. */
export const autoSource = "auto"

/** Whether a click body was made by an auto-highlight rule rather than a press. */
export const isAutoClick = (body: { readonly metadata: { readonly source: string } }): boolean =>
  body.metadata.source === autoSource
