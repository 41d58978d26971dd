/** What the status page learns of a line's traffic: bytes arrive even when none decode. */
export interface Activity {
  readonly receivedAt: number
  readonly bytes: number
}

/**
 * Counts a place's received bytes and says when to report them: at most once a second, so a
 * flood of garbage costs the status bus nothing while it still tells bytes that never decode
 * apart from silence.
 */
export class ActivityMeter {
  private bytes = 0
  private lastReportAt = -Infinity

  /** Counts a chunk; returns the report to publish, if one is due. */
  received(bytes: number, receivedAt: number): Activity | undefined {
    this.bytes += bytes
    if (receivedAt - this.lastReportAt < 1_000) return undefined
    this.lastReportAt = receivedAt
    return { receivedAt, bytes: this.bytes }
  }
}
