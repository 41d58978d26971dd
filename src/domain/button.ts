/** One courtside button gesture, whatever the source (MQTT, serial, input device, GPIO). */
export type Gesture = "single" | "double" | "triple" | "hold" | "release"

/**
 * What a button source says makes a press itself (a Shelly Gen1 `event_cnt`, a Gen2 device stamp,
 * a serial counter), in a slot of its own (one per device input). The last one of each slot is
 * kept with the outbox, so a press re-published after a restart is still recognised.
 */
export interface PressIdentity {
  readonly slot: string
  readonly identity: string
}

export interface ButtonEvent {
  /** Configured source name (e.g. "court1-remote"). */
  readonly source: string
  /** Button id on a multi-button device; "1" for single-button devices. */
  readonly button: string
  readonly gesture: Gesture
  /** Edge time in ms: the device's own timestamp where it has one, else the receive time. */
  readonly pressedAt: number
  /**
   * What the device says makes this press itself, where it says anything (a Shelly Gen1
   * `event_cnt`, a Gen2 event and device stamp, a serial counter): kept with the press's item, so
   * a re-publish of the press after a restart makes no second one (see handlePress).
   */
  readonly identity?: PressIdentity
}
