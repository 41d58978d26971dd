/**
 * A pause, for pacing what a test plays (a console's frame interval, the moment a button is
 * pressed), never for waiting on a condition: that is `eventually`, which returns as soon as the
 * condition holds.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
