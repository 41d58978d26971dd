import type { RaceScript } from "../../adapters/colorado-cts/console-model.ts"

/**
 * The races the swimming end-to-end tests play, short enough (touches 8–20 s after the horn) that
 * a test runs in well under a minute, and each with the traps of a real pool (the protocol notes,
 * §5): the previous heat's results on the board before the start, provisional times replaced a
 * moment later, a lane switched off, a lane dropping out of running and coming back, a split, and
 * the operator advancing the heat before the last swimmer touched.
 */

/** Event 7 heat 2 after heat 1: 7 swimmers in 8 lanes. */
export const heatWithEveryTrap: RaceScript = {
  event: 7,
  heat: 2,
  previous: {
    // Heat 1's results: a click for any of them would be a click before the start.
    results: [
      { lane: 1, place: 6, timeMs: 33_410 },
      { lane: 2, place: 2, timeMs: 30_020 },
      { lane: 3, place: 1, timeMs: 29_870 },
      { lane: 4, place: 3, timeMs: 30_550 },
      { lane: 5, place: 7, timeMs: 35_180 },
      { lane: 6, place: 4, timeMs: 31_090 },
      { lane: 7, place: 5, timeMs: 32_760 },
      { lane: 8, place: 8, timeMs: 36_400 }
    ]
  },
  lanes: [
    { lane: 1, finishMs: 14_320 },
    { lane: 2, finishMs: 9_870, provisional: true },
    { lane: 3, finishMs: 8_450, provisional: true },
    { lane: 4, finishMs: 11_230 },
    { lane: 5, off: true },
    { lane: 6, dropOut: { fromMs: 4_000, toMs: 6_500 }, finishMs: 16_040 },
    { lane: 7, finishMs: 12_610, provisional: true },
    { lane: 8, splitMs: [6_200], finishMs: 19_480 }
  ],
  preStartMs: 3_000,
  // The operator sets up heat 3 while lanes 1, 6 and 8 still swim: their finishes stay heat 2's.
  advanceAtMs: 13_500,
  advanceTo: { event: 7, heat: 3 },
  runOnMs: 1_500,
  afterMs: 1_000
}

/**
 * Event 12 heat 1, 8 swimmers: three touches by ~10 s (the kill comes once the daemon stored
 * them), one at 12 s while the daemon is down (the test keeps it down until then), four well
 * after its restart.
 */
export const heatForAKill: RaceScript = {
  event: 12,
  heat: 1,
  previous: { results: [1, 2, 3, 4, 5, 6, 7, 8].map((lane) => ({ lane, place: 9 - lane, timeMs: 40_000 + 300 * lane })) },
  lanes: [
    { lane: 1, finishMs: 8_210 },
    { lane: 2, finishMs: 8_940, provisional: true },
    { lane: 3, finishMs: 9_630 },
    { lane: 4, finishMs: 12_050, provisional: true },
    { lane: 5, finishMs: 15_210 },
    { lane: 6, finishMs: 16_770 },
    { lane: 7, finishMs: 18_330, provisional: true },
    { lane: 8, finishMs: 19_920 }
  ],
  preStartMs: 2_000,
  // The operator sets up heat 2 while the daemon is down: the daemon that joins the heat sees heat
  // 2 on the board, but every finish is heat 1's.
  advanceAtMs: 11_500,
  advanceTo: { event: 12, heat: 2 },
  runOnMs: 1_500,
  afterMs: 1_000
}
