import { clockLabel, timeTicks } from "./time-ticks.ts"
import type { Timeline } from "./timeline-model.ts"
import { muted, tag, text, textWidth } from "./svg-text.ts"

/** Where the time axis goes: the time's x, the chart's ends, the ticks' top and the labels' baseline. */
export interface TimeAxis {
  readonly x: (at: number) => number
  readonly left: number
  readonly right: number
  readonly tickTop: number
  readonly baseline: number
}

/** Round clock times under the chart, as far apart as their labels need; the venue's clock. */
export const timeAxisSvg = (tl: Timeline, axis: TimeAxis, pad: number, timeZone: string | undefined): string => {
  const labelWidth = textWidth("00:00", 10.5) + 14
  const { step, ticks } = timeTicks(tl.from, tl.to, ((tl.to - tl.from) * labelWidth) / (axis.right - axis.left))
  const withSeconds = step < 60_000
  return ticks.flatMap((t) => {
    const x = axis.x(t)
    const label = clockLabel(t, withSeconds, timeZone)
    const half = textWidth(label, 10.5) / 2
    // A label that would stick out of the picture is left out; its tick stays.
    const shown = x - half >= 2 && x + half <= axis.right + pad - 2
    return [tag("g", { "data-tick": "", "data-at": t, "data-x": x }, [
      tag("line", { x1: x, x2: x, y1: axis.tickTop, y2: axis.tickTop + 4, stroke: muted }),
      shown ? text(x, axis.baseline, 10.5, label, { "text-anchor": "middle", fill: muted }) : ""
    ].join(""))]
  }).join("")
}
