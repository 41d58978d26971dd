/**
 * Choosing a press's time between the source's own timestamp and the
 * moment we received it. The source's time is the true edge, but only when
 * it is on the wall clock: a Shelly that never reached its SNTP server
 * reports 1970, and an input device may have been switched to
 * CLOCK_MONOTONIC. An MQTT session may hold presses back for a few minutes
 * during a broker restart, so older times are believed up to
 * `maxEdgeAgeMs`. A press cannot have happened after we received it: a time
 * ahead of the receive time is a device clock running fast, and the receive
 * time is then the closer guess.
 */
export const maxEdgeAgeMs = 5 * 60_000

export const edgeTime = (sourceMs: number | undefined, receivedAt: number): number =>
  sourceMs !== undefined && Number.isFinite(sourceMs) && sourceMs >= receivedAt - maxEdgeAgeMs
    ? Math.min(sourceMs, receivedAt)
    : receivedAt

/** How late the newest mapped time of a read may trail its receive time before the offset is learnt again. */
export const maxMappedLagMs = 1_000

/**
 * Edge times from a local clock that is not the wall clock (gpiomon's
 * default CLOCK_MONOTONIC): the offset to the wall clock is learnt from the
 * receive times. The newest edge of a read is the least delayed, and the
 * smallest `receivedAt - source` seen is the best offset; when the newest
 * edge of a read still trails its receive time by more than `maxMappedLagMs`,
 * the wall clock was stepped and the offset is learnt again. This keeps the
 * spacing of edges (debounce, hold, multi-press) true even when several
 * arrive in one read. Wall-clock times go through `edgeTime`.
 */
export const makeLocalClock = () => {
  let offset: number | undefined
  const isLocal = (sourceMs: number, receivedAt: number) => Number.isFinite(sourceMs) && sourceMs < receivedAt - maxEdgeAgeMs
  /** The wall-clock times of the edges of one read, in the same order. */
  return (sourceTimes: ReadonlyArray<number>, receivedAt: number): Array<number> => {
    const local = sourceTimes.filter((sourceMs) => isLocal(sourceMs, receivedAt))
    if (local.length > 0) {
      const newest = Math.max(...local)
      const observed = receivedAt - newest
      if (offset === undefined || observed < offset || newest + offset < receivedAt - maxMappedLagMs) offset = observed
    }
    return sourceTimes.map((sourceMs) =>
      isLocal(sourceMs, receivedAt) ? Math.min(sourceMs + offset!, receivedAt) : edgeTime(sourceMs, receivedAt)
    )
  }
}
