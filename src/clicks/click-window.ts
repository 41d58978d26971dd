/** Seconds of footage before and after the press; absent = the sport's default window. */
export interface ClickWindow {
  readonly beforeSeconds: number
  readonly afterSeconds: number
}
