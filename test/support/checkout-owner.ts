import { chmodSync, chownSync, lchownSync, readdirSync } from "node:fs"
import { join } from "node:path"
import type { Wrap } from "../../scripts/support/scorebridge-process.ts"

/**
 * `sudo scorebridge setup --config FILE` from a checkout serves as the config's owner, never as
 * root (src/setup/privilege/checkout-drop.ts). Tests run as root give their config directories
 * to nobody, as a technician's checkout belongs to them; run as anyone else they change nothing.
 */
export const setupUser = 65534

const asRoot = (): boolean => process.geteuid?.() === 0

/** `dir` and everything in it (links themselves, not what they lead to) become nobody's; nobody may enter `dir`. */
export const giveToSetupUser = (dir: string): void => {
  if (!asRoot()) return
  chmodSync(dir, 0o755)
  lchownSync(dir, setupUser, setupUser)
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) lchownSync(join(dir, name), setupUser, setupUser)
}

/** A device the page (and a daemon run as the same user) opens, e.g. a pty's end behind its link. */
export const deviceForSetupUser = (path: string): void => {
  if (asRoot()) chownSync(path, setupUser, setupUser)
}

/** Runs a command as nobody when the test is root: a daemon the setup page, as nobody, may signal. */
export const asSetupUser: Wrap = (command, args) =>
  asRoot() ? ["setpriv", [`--reuid=${setupUser}`, `--regid=${setupUser}`, "--init-groups", command, ...args]] : [command, args]
