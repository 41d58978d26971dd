/**
 * The lines `gpiomon` (Debian's `gpiod` package) prints per edge.
 *
 * libgpiod v1:  `event:  RISING EDGE offset: 17 timestamp: [1700000000.123456789]`
 *               `event: FALLING EDGE offset: 17 timestamp: [1700000000.223456789]`
 * libgpiod v2:  `<time>\t<rising|falling>\t<line>` where `<time>` is raw
 *               seconds (`1700000000.123456789`, the default, monotonic clock),
 *               UTC (`2023-11-14T22:13:20.123456789Z`, with `-E realtime` or
 *               `--utc`) or local time (same without `Z`, `--localtime`), and
 *               `<line>` is `gpiochip0 17` for an unnamed line, `"name"` for a
 *               named one, or `gpiochip0 17 "name"` when `-c` was given.
 * Custom `-F` formats are not read.
 */
export interface GpioEdge {
  readonly rising: boolean
  /** The line offset, or the line name when gpiomon printed only the name. */
  readonly line: string
  /** The event time on the wall clock in ms, if the line carried one that can be read as such. */
  readonly at: number
}

const v1 = /^event:\s+(?<edge>RISING|FALLING) EDGE offset: (?<offset>\d+) timestamp: \[\s*(?<seconds>\d+)\.(?<fraction>\d+)\]$/
const v2 = /^(?<time>\S+)\t(?<edge>rising|falling)\t(?<line>.+)$/
const rawSeconds = /^(?<seconds>\d+)\.(?<fraction>\d+)$/
const dateTime = /^(?<y>\d{4})-(?<mo>\d\d)-(?<d>\d\d)T(?<h>\d\d):(?<mi>\d\d):(?<s>\d\d)\.(?<fraction>\d+)(?<utc>Z?)$/
const chipAndOffset = /^\S+ (?<offset>\d+)(?: .*)?$/
const quotedName = /^"(?<name>.*)"$/

/** The banner of `gpiomon --banner` (v2); informational. */
export const isBanner = (line: string) => line.startsWith("Monitoring line")

const millis = (seconds: string, fraction: string) => Number(seconds) * 1000 + Number(fraction.padEnd(3, "0").slice(0, 3))

const readTime = (time: string): number => {
  const raw = rawSeconds.exec(time)?.groups
  if (raw !== undefined) return millis(raw.seconds!, raw.fraction!)
  const date = dateTime.exec(time)?.groups
  if (date === undefined) return Number.NaN
  const [y, mo, d, h, mi, s] = [date.y, date.mo, date.d, date.h, date.mi, date.s].map(Number) as [number, number, number, number, number, number]
  const whole = date.utc === "Z" ? Date.UTC(y, mo - 1, d, h, mi, s) : new Date(y, mo - 1, d, h, mi, s).getTime()
  return whole + millis("0", date.fraction!)
}

const readLine = (line: string): string => {
  const offset = chipAndOffset.exec(line)?.groups?.offset
  if (offset !== undefined) return offset
  return quotedName.exec(line)?.groups?.name ?? line
}

/** One printed line → the edge, or undefined when it is not an edge line. */
export const parseGpiomonLine = (text: string): GpioEdge | undefined => {
  const old = v1.exec(text)?.groups
  if (old !== undefined) return { rising: old.edge === "RISING", line: old.offset!, at: millis(old.seconds!, old.fraction!) }
  const current = v2.exec(text)?.groups
  if (current === undefined) return undefined
  const line = readLine(current.line!)
  const at = readTime(current.time!)
  return line.length === 0 || Number.isNaN(at) ? undefined : { rising: current.edge === "rising", line, at }
}
