import { absent, blank, type Packet } from "./framing.ts"

/**
 * What a channel's module shows, as two consecutive packets of it agreed (the line has no checksum:
 * repetition is the check, ../shared/protocols/colorado-cts.md §3). Every channel but 0 is re-sent
 * several times a second while nothing changes, so a value seen in one packet only — line noise,
 * or a provisional finish time the console replaced at once — is never taken.
 */
export interface ModuleContent {
  readonly running: boolean
  /** By position: 0–14, `blank` (15), or `absent` (the packets did not carry that position). */
  readonly digits: ReadonlyArray<number>
}

/** A content's identity: the running bit and each position's value (an absent position differs from a blank one). */
export const contentKey = (packet: Pick<Packet, "running" | "digits">): string => {
  let key = packet.running ? "R" : "S"
  for (const digit of packet.digits) key += digit === absent ? "_" : digit.toString(16)
  return key
}

export interface RepetitionStats {
  /** Packets whose content was not repeated by the next packet of their channel: never read. */
  unconfirmed: number
}

interface Seen {
  readonly key: string
  readonly content: ModuleContent
}

/** One channel's digit or format packets: its confirmed content, and the last packet waiting for its twin. */
class Confirmation {
  confirmed: Seen | undefined
  #last: Seen | undefined
  #repeated = false

  /** Offers a packet's content; returns whether the confirmed content changed. */
  offer(key: string, content: ModuleContent, stats: RepetitionStats): boolean {
    if (this.#last?.key === key) {
      if (this.#repeated) return false
      this.#repeated = true
      if (this.confirmed?.key === key) return false
      this.confirmed = this.#last
      return true
    }
    this.#dropLast(stats)
    this.#last = { key, content }
    this.#repeated = false
    return false
  }

  /** A dropped packet came between: the one before it has no twin. */
  interrupt(stats: RepetitionStats): void {
    this.#dropLast(stats)
    this.#last = undefined
  }

  #dropLast(stats: RepetitionStats): void {
    if (this.#last !== undefined && !this.#repeated && this.#last.key !== this.confirmed?.key) stats.unconfirmed++
  }
}

export const channels = 32

/** Every channel's confirmed digit and format contents. */
export class Modules {
  readonly #digits = Array.from({ length: channels }, () => new Confirmation())
  readonly #formats = Array.from({ length: channels }, () => new Confirmation())
  readonly #stats: RepetitionStats

  constructor(stats: RepetitionStats) {
    this.#stats = stats
  }

  /** Offers a packet; returns whether its channel's confirmed content (digits or format) changed. */
  offer(packet: Packet): boolean {
    const content: ModuleContent = { running: packet.running, digits: Array.from(packet.digits) }
    return (packet.format ? this.#formats : this.#digits)[packet.channel]!.offer(contentKey(packet), content, this.#stats)
  }

  /** A packet of `channel` was dropped (malformed, implausible): it breaks the pair around it. */
  drop(channel: number, format: boolean): void {
    ;(format ? this.#formats : this.#digits)[channel]?.interrupt(this.#stats)
  }

  digits(channel: number): ModuleContent | undefined {
    return this.#digits[channel]?.confirmed?.content
  }

  format(channel: number): ModuleContent | undefined {
    return this.#formats[channel]?.confirmed?.content
  }

  /** Channels with confirmed digits, in order. */
  confirmedChannels(): ReadonlyArray<number> {
    return this.#digits.flatMap((c, channel) => (c.confirmed === undefined ? [] : [channel]))
  }
}

/** Whether the position shows nothing (blank, or not sent). */
export const isDark = (digit: number | undefined): boolean => digit === undefined || digit === blank || digit === absent

/** The module as text, one character per position: digits, `A`–`E` for 10–14, a space where dark. */
export const moduleText = (content: ModuleContent): string =>
  content.digits.map((d) => (isDark(d) ? " " : d.toString(16).toUpperCase())).join("")
