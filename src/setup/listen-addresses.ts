import { type NetworkInterfaceInfo, networkInterfaces } from "node:os"

type Interfaces = NodeJS.Dict<ReadonlyArray<NetworkInterfaceInfo>>

// fe80::/10 needs a zone (%eth0) no browser address bar takes: of no use for a page.
const linkLocal = /^fe[89ab][0-9a-f]:/iu

/**
 * Where `scorebridge setup` listens: loopback always (127.0.0.1, and ::1 when the machine has
 * IPv6), reached on the mini-PC or through an SSH tunnel; with `lan`, every other address of the
 * machine too, so a phone at the court can open the page. Nothing listens on 0.0.0.0: an address
 * added later (another network plugged in) is not served without asking.
 */
export const listenAddresses = (lan: boolean, interfaces: Interfaces = networkInterfaces()): ReadonlyArray<string> => {
  const all = Object.values(interfaces).flatMap((infos) => infos ?? [])
  const addresses = ["127.0.0.1"]
  if (all.some((info) => info.address === "::1")) addresses.push("::1")
  if (lan) {
    for (const info of all) {
      if (info.internal || linkLocal.test(info.address) || addresses.includes(info.address)) continue
      addresses.push(info.address)
    }
  }
  return addresses
}
