/** The ways a console is reached, as the page names them, and how a link is told in words. */
import type { Console, PageLink } from "./api-types.ts"
import type { LinkKind } from "./core.ts"

export const linkKinds = (c: Console): Array<LinkKind> => {
  const kinds: Array<LinkKind> = []
  c.links.forEach((l) => {
    if (l === "tcp") kinds.push("tcp-listen", "tcp-connect")
    else kinds.push(l)
  })
  return kinds
}

export const linkKindOf = (l: PageLink | null): LinkKind | null =>
  !l ? null : l.serial ? "serial" : l.udp ? "udp" : l.tcp && "listen" in l.tcp && l.tcp.listen ? "tcp-listen" : l.tcp ? "tcp-connect" : null

export const linkText = (l: PageLink): string => {
  if (l.serial) return l.serial.path + (l.serial.baudRate ? " at " + l.serial.baudRate + " baud" : "")
  if (l.udp) return "UDP " + l.udp.listen
  if (l.tcp && "listen" in l.tcp) return "listen " + l.tcp.listen
  return l.tcp && "connect" in l.tcp ? "connect " + l.tcp.connect : ""
}
