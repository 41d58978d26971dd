import { spawnSync } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join } from "node:path"

/**
 * A throw-away GnuPG home holding an apt archive key, made as docs/fleet.md tells an office to:
 * a primary key that only certifies (kept offline) and a signing subkey. No passphrase, so gpg
 * never asks. `stop()` ends the gpg-agent that gpg started for this home.
 */
export interface ArchiveKey {
  /** The GnuPG home: GNUPGHOME for scorebridge-repo.sh --key. */
  readonly home: string
  /** The primary key's fingerprint. */
  readonly fingerprint: string
  readonly env: NodeJS.ProcessEnv
  readonly gpg: (...args: ReadonlyArray<string>) => string
  readonly stop: () => void
}

export const makeArchiveKey = (dir: string, name: string): ArchiveKey => {
  const home = join(dir, `gnupg-${name}`)
  mkdirSync(home, { recursive: true, mode: 0o700 })
  const env = { ...process.env, GNUPGHOME: home, LC_ALL: "C" }
  const gpg = (...args: ReadonlyArray<string>): string => {
    const result = spawnSync("gpg", ["--batch", "--pinentry-mode", "loopback", "--passphrase", "", ...args], {
      env,
      encoding: "utf8",
      timeout: 30_000
    })
    if (result.status !== 0) {
      throw new Error(`gpg ${args.join(" ")} exited ${result.status ?? result.signal}: ${result.error?.message ?? ""}${result.stderr}`)
    }
    return result.stdout
  }
  gpg("--quick-gen-key", `${name} archive <${name}@example.com>`, "ed25519", "cert", "never")
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg("--with-colons", "--list-secret-keys"))![1]!
  gpg("--quick-add-key", fingerprint, "ed25519", "sign", "1y")
  const stop = () => {
    spawnSync("gpgconf", ["--homedir", home, "--kill", "all"], { timeout: 10_000 })
  }
  return { home, fingerprint, env, gpg, stop }
}
