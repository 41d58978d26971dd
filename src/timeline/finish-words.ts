import type { FinishFacts } from "../domain/race.ts"

/** 1st, 2nd, 3rd, 4th … 11th, 12th. */
export const ordinal = (n: number): string => {
  const teen = n % 100 >= 11 && n % 100 <= 13
  const suffix = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Readonly<Record<number, string>>)[n % 10] ?? "th"
  return `${n}${suffix}`
}

/** A finish mark's label: its lane and place, e.g. "L4 · 1st". */
export const finishLabel = (finish: FinishFacts): string => `L${finish.lane} · ${ordinal(finish.place)}`

/** A finish in words for a tooltip: "L4 · 1st · 28.91 · event 12 · heat 3" (and the swimmer when known). */
export const finishWords = (finish: FinishFacts): string =>
  [
    finishLabel(finish),
    finish.time,
    ...(finish.event === undefined ? [] : [`event ${finish.event}`]),
    ...(finish.heat === undefined ? [] : [`heat ${finish.heat}`]),
    ...(finish.swimmer === undefined ? [] : [finish.swimmer])
  ].join(" · ")
