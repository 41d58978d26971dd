/**
 * The place as it will be saved: an edited place keeps what the page does not touch, in the
 * order a hand writes a place (key, name, sport, scoreboard, actions).
 */
import type { FilePlace, FileScoreboard, PageLink } from "./api-types.ts"
import { state } from "./core.ts"

export const linkKeys: ReadonlyArray<keyof PageLink> = ["serial", "tcp", "udp", "mqtt"]

const buildScoreboard = (): FileScoreboard => {
  const board: FileScoreboard = Object.assign({}, state.base.scoreboard || {})
  linkKeys.forEach((k) => delete board[k])
  if (state.console) board.protocol = state.console.protocol
  Object.assign(board, state.link || {})
  if (Object.keys(state.options).length > 0) board.options = state.options
  else delete board.options
  return board
}

export const buildPlace = (): FilePlace => {
  const own: FilePlace = { key: state.place ? state.place.key : "" }
  if (state.place && state.place.name) own.name = state.place.name
  if (state.place && state.place.sport) own.sport = state.place.sport
  // own twice: first for the order of its keys, last so a new name wins over the file's.
  const p: FilePlace = Object.assign({}, own, state.base, own, { scoreboard: buildScoreboard() })
  if (state.actions.length > 0) p.actions = state.actions
  else delete p.actions
  return p
}
