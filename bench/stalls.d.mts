/** An event-loop stall: from `at` (ms since the epoch), the loop answered `ms` late. */
export interface Stall {
  readonly at: number
  readonly ms: number
}

export declare const recordStalls: (overMs: number) => {
  /** The stalls recorded since the last call. */
  readonly take: () => Array<Stall>
  readonly stop: () => void
}
