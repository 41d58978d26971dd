/**
 * The service defines score-entry shapes for tennis and volleyball only;
 * every other sport code gets the generic left/right/period entry.
 */
export type SportKind = "tennis" | "volleyball" | "generic"

const byCode: Readonly<Record<string, SportKind>> = {
  tennis: "tennis",
  // Padel and pickleball are scored like tennis on the boards we bridge, but the
  // service documents the tennis shape for `tennis` only: keep them generic.
  volleyball: "volleyball",
  beachvolleyball: "volleyball"
}

export const sportKind = (sport: string): SportKind => byCode[sport] ?? "generic"
