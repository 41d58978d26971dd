import type { OutboxItem } from "../../src/delivery/outbox.ts"
import type { Pair, TennisEntry } from "../../src/domain/score-entry.ts"
import type { TimelineInput } from "../../src/timeline/build-timeline.ts"
import { ItemLog } from "./outbox-item-log.ts"

/**
 * Two matches as the outbox would hold them, with everything the timeline must show: the
 * tests, the screenshot tests and scripts/timeline-png.ts draw the same data.
 */

export const matchStart = Date.UTC(2025, 5, 14, 16, 0, 0)

type Side = "H" | "A"

export interface TennisMatch {
  readonly input: TimelineInput
  readonly log: ItemLog
  /** Stamp of the first entry at 6–6 in set 2, and of the entry that opened set 3. */
  readonly tieBreakFrom: number
  readonly set3From: number
  readonly set2From: number
  readonly items: {
    readonly undonePress: OutboxItem
    readonly mergedAuto: OutboxItem
    readonly skippedAuto: OutboxItem
    readonly missedPress: OutboxItem
    readonly inFlightPress: OutboxItem
    /** Accepted clicks with a clip, with none, and one whose clip is still awaited. */
    readonly clipReady: OutboxItem
    readonly noClip: OutboxItem
    readonly clipPending: OutboxItem
  }
}

/** The clip the service made of a click: two angles, found 25 s after the press. */
export const clipOf = (click: OutboxItem) => ({
  angles: 2,
  videoURL: `https://media.example.com/clips/${click.id}.mp4`,
  thumbnailURL: `https://media.example.com/clips/${click.id}.jpg`,
  readyAt: click.createdAt + 25_000
})

/** Points of one game as the service has them: 0–4 (AD), deuce folded to 3–3. */
const shownPoints = (w: number, l: number, winner: 0 | 1): Pair => {
  let pair: Pair
  if (w >= 3 && l >= 3) pair = w === l ? [3, 3] : w > l ? [4, 3] : [3, 4]
  else pair = [w, l]
  return winner === 0 ? pair : [pair[1], pair[0]]
}

// How each game is played out, from the winner's side: W won the point, L lost it.
const gamePatterns = ["WWLWW", "WLWWW", "LWWLWW", "WWWW", "WLLWLWWW", "LLWWWW"]

/**
 * Set 1: 6–2 with a skipped auto-highlight (after an outage), a press taken back and a break no
 * camera filmed; set 2 goes to a tie-break won 7–5, with a press that merged an auto-highlight,
 * set points and the set won; set 3 has just started, its first press in flight, the last entries
 * waiting and the clip of the set won still awaited. Every other highlight has its clip.
 */
export const tennisMatch = (): TennisMatch => {
  const log = new ItemLog("centre-court", "ev-tennis")
  let t = matchStart
  const sets: Array<[number, number]> = [[0, 0]]
  let gamesPlayed = 0
  const entry = (points: Pair): TennisEntry => {
    const finished = sets.slice(0, -1)
    const won: Pair = [finished.filter(([h, a]) => h > a).length, finished.filter(([h, a]) => a > h).length]
    return { timeStamp: t, left: won[0], right: won[1], period: sets.length, scoreValue: { gameScores: sets.map(([h, a]) => [h, a] as const), pointScore: points } }
  }
  const autos: Array<{ at: number; team: "home" | "away"; rules: Array<string> }> = []
  let tieBreakFrom = 0
  let set2From = 0
  let set3From = 0

  const playGame = (winner: Side, pattern: string) => {
    const w = winner === "H" ? 0 : 1
    let won = 0
    let lost = 0
    const server = gamesPlayed % 2 === 0 ? "H" : "A"
    for (const point of pattern) {
      t += 38_000
      if (point === "W") won++
      else lost++
      const gameOver = won >= 4 && won - lost >= 2
      if (!gameOver) {
        log.score(entry(shownPoints(won, lost, w as 0 | 1)))
        continue
      }
      sets[sets.length - 1]![w]++
      gamesPlayed++
      const [h, a] = sets.at(-1)!
      const setOver = Math.max(h, a) >= 6 && Math.abs(h - a) >= 2
      const rules = [...(server !== winner ? ["break"] : []), ...(setOver ? ["set-won"] : [])]
      if (setOver) sets.push([0, 0])
      log.score(entry([0, 0]))
      if (h === 6 && a === 6) tieBreakFrom = t
      if (rules.length > 0) autos.push({ at: t, team: winner === "H" ? "home" : "away", rules })
      if (setOver) set2From = set2From === 0 ? t : set2From
    }
    // A changeover after every odd game.
    if (gamesPlayed % 2 === 1) t += 90_000
  }

  const playSet = (winners: string) => [...winners].forEach((side, i) => playGame(side as Side, gamePatterns[i % gamePatterns.length]!))

  playSet("HAHHAHHH")
  t += 120_000
  playSet("AHHAAHAHHAAH")
  // Tie-break: plain counts, home wins 7–5.
  let home = 0
  let away = 0
  for (const side of "HHAHAAHAHHAH") {
    t += 30_000
    if (side === "H") home++
    else away++
    if (home === 7) {
      sets[sets.length - 1] = [7, 6]
      sets.push([0, 0])
      set3From = t
      log.score(entry([0, 0]))
      autos.push({ at: t, team: "home", rules: ["set-won"] })
      break
    }
    log.score(entry([home, away]))
    if (home === 6 && away === 5) autos.push({ at: t, team: "home", rules: ["set-point"] })
  }

  // Set 3 begins: the service is slow, the last entries wait.
  t += 120_000
  log.score(entry([1, 0]), { state: "pending" })
  t += 38_000
  log.score(entry([2, 0]), { state: "pending" })

  // Highlights, in the order the outbox would have stored them.
  const [firstBreak, ...otherAutos] = autos
  const skippedAuto = log.auto(firstBreak!.at, firstBreak!.team, firstBreak!.rules, {
    state: "missed",
    result: { skipped: true },
    lastError: "skipped: its footage was gone before it could be sent (captured 75 s before the service answered again)"
  })
  const undonePress = log.press(matchStart + 9 * 60_000, "away")
  log.undo(undonePress, matchStart + 9 * 60_000 + 4_000, { result: { deletedMomentKey: "m-undone", clickItemId: undonePress.id } })
  const missedPress = log.press(matchStart + 20 * 60_000, "home", {
    state: "missed",
    lastError: "moment m9 requested 75 s after the press; while an event is open only the last minute of footage can be clipped"
  })
  let mergedAuto: OutboxItem | undefined
  for (const auto of otherAutos) {
    const item = log.auto(auto.at, auto.team, auto.rules)
    if (mergedAuto === undefined && auto.at > set2From && auto.rules.includes("break")) {
      // The crowd's favourite: someone pressed 2 s after the break; the press wins.
      const press = log.press(auto.at + 2_000, auto.team)
      mergedAuto = log.update(item, { state: "warning", result: { mergedInto: press.id }, lastError: `merged into press #${press.id}` })
    }
  }
  const inFlightPress = log.press(t + 5_000, "home", { state: "pending", attempts: 2, lastError: "timeout after 2000 ms" })

  // What came of the clips: the press taken back lost its moment; a break in set 1 was filmed by
  // no camera; the set won just now is still awaited; every other accepted click has its clip.
  const accepted = log.recent().filter((i) => i.kind === "click" && i.state === "delivered").sort((a, b) => a.createdAt - b.createdAt)
  const noClip = accepted.find((i) => i.id !== undonePress.id && i.createdAt < set2From && i.createdAt > skippedAuto.createdAt)!
  const clipPending = accepted.at(-1)!
  for (const click of accepted) {
    if (click === undonePress) log.follow(click, "deleted", { reason: `undone: the moment was deleted by undo #${click.id + 1}` })
    else if (click === noClip) log.follow(click, "no-clip", { reason: "no camera filmed its window (camera 1 off)", momentStatus: "ready" })
    else if (click === clipPending) log.follow(click, null, null, { reads: 1 })
    else log.follow(click, "clip-ready", clipOf(click))
  }
  const clipReady = accepted.find((i) => i.createdAt > set2From && i.id !== clipPending.id)!
  return {
    log,
    tieBreakFrom,
    set2From,
    set3From,
    input: {
      place: { key: "centre-court", name: "Centre Court" },
      sport: "tennis",
      event: { key: "ev-tennis", homeTeam: "A. Alvarez", awayTeam: "B. Novak" },
      recent: log.recent(),
      followUps: log.followUps()
    },
    items: { undonePress, mergedAuto: mergedAuto!, skippedAuto, missedPress, inFlightPress, clipReady, noClip, clipPending }
  }
}

export interface BasketballQuarter {
  readonly input: TimelineInput
  readonly log: ItemLog
  /** Stamps of the entries that opened Q2 and Q3. */
  readonly q2From: number
  readonly q3From: number
  /** What the auto-highlights are, in time order. */
  readonly autos: ReadonlyArray<{ readonly at: number; readonly rules: ReadonlyArray<string>; readonly state: string }>
  readonly items: { readonly undoneAuto: OutboxItem; readonly mergedAuto: OutboxItem; readonly inFlightAuto: OutboxItem; readonly press: OutboxItem }
}

// The second quarter, play by play: who scored, how much, seconds since the last basket.
const plays: ReadonlyArray<readonly [Side, number, number]> = [
  ["A", 2, 35], ["A", 3, 28], ["H", 2, 40], ["H", 2, 22], ["A", 3, 31], ["H", 2, 26], ["A", 1, 44], ["A", 1, 3],
  ["H", 2, 37], ["A", 3, 29], ["H", 2, 33], ["A", 2, 41], ["H", 3, 24], ["H", 2, 38], ["A", 2, 30], ["A", 3, 27],
  ["H", 1, 45], ["H", 1, 3], ["A", 2, 36], ["H", 2, 29]
]

/**
 * The end of Q1 at 18–15, all of Q2 with auto-highlights by the rules score (atLeast 3),
 * lead-change, tie and period-end, and the first entry of Q3. One auto taken back by undo, one
 * merged into a press, the last one still in flight. Its clips are not followed (no follow-ups).
 */
export const basketballQuarter = (): BasketballQuarter => {
  const log = new ItemLog("court-1", "ev-hoops")
  let t = matchStart
  let home = 18
  let away = 15
  const entry = (period: number) => ({ timeStamp: t, left: home, right: away, period })
  log.score(entry(1))
  t += 130_000
  const q2From = t
  log.score(entry(2))
  const autos: Array<{ at: number; team: "home" | "away" | "none"; rules: Array<string> }> = []
  // As the rules see it: the last team to lead, kept through a tie.
  let lastLeader = Math.sign(home - away)
  for (const [side, points, after] of plays) {
    t += after * 1000
    if (side === "H") home += points
    else away += points
    const leader = Math.sign(home - away)
    log.score(entry(2))
    const rules = [
      ...(points >= 3 ? ["score"] : []),
      ...(leader !== 0 && leader !== lastLeader ? ["lead-change"] : []),
      ...(leader === 0 ? ["tie"] : [])
    ]
    if (leader !== 0) lastLeader = leader
    if (rules.length > 0) autos.push({ at: t, team: side === "H" ? "home" : "away", rules })
  }
  t += 150_000
  const q3From = t
  log.score(entry(3), { state: "pending" })
  autos.push({ at: t, team: "none", rules: ["period-end"] })

  const items = autos.map((auto, i) => log.auto(auto.at, auto.team, auto.rules, i === autos.length - 1 ? { state: "pending" } : {}))
  // The crowd's favourite was the first tie: the operator pressed too, 2 s later.
  const tieIndex = autos.findIndex((a) => a.rules.includes("tie"))
  const press = log.press(autos[tieIndex]!.at + 2_000, autos[tieIndex]!.team)
  const mergedAuto = log.update(items[tieIndex]!, { state: "warning", result: { mergedInto: press.id }, lastError: `merged into press #${press.id}` })
  const undoneAuto = items[0]!
  log.undo(undoneAuto, undoneAuto.createdAt + 6_000, { result: { deletedMomentKey: "m1", clickItemId: undoneAuto.id } })
  return {
    log,
    q2From,
    q3From,
    autos: autos.map((a, i) => ({ at: a.at, rules: a.rules, state: i === 0 ? "undone" : i === tieIndex ? "merged" : i === autos.length - 1 ? "in-flight" : "delivered" })),
    items: { undoneAuto, mergedAuto, inFlightAuto: items.at(-1)!, press },
    input: {
      place: { key: "court-1", name: "Court 1" },
      sport: "basketball",
      event: { key: "ev-hoops", homeTeam: "Lakeside Lions", awayTeam: "Harbor Hawks" },
      recent: log.recent(),
      followUps: log.followUps()
    }
  }
}
