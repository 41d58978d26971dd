import { createHash } from "node:crypto"
import { readFile, stat } from "node:fs/promises"
import type { FileAccess } from "./atomic-file.ts"

/** The fingerprint of a config that does not exist yet: the page saves the first one against it. */
export const absentFingerprint = "absent"

/** sha256 of the file's bytes: what the page saw, compared before a save writes anything. */
export const fingerprintOf = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex")

/**
 * Where a config that does not exist yet starts: the service and the token as the package
 * installs them (the unit's LoadCredential=token:/etc/scorebridge/credentials/token), no places.
 */
export const configSkeleton = `# scorebridge configuration, started by \`scorebridge setup\` (the setup page).
# The page and a text editor both edit this file: the page keeps its comments and order,
# and notices a change made by hand while it is open. Every setting:
# /usr/share/doc/scorebridge/docs/configuration.md

service:
  baseUrl: https://api.example.com       # the Event Highlights Service
  token:
    credential: token                    # /etc/scorebridge/credentials/token, set on the page or with scorebridge-set-token

places: []
`

/** The config file as it is now (or the skeleton, when there is none). */
export interface ConfigFile {
  readonly exists: boolean
  readonly text: string
  readonly fingerprint: string
  /** The file's mode and owner, for the file that replaces it; a new one is 0644 as the package installs it. */
  readonly access: FileAccess
}

export const readConfigFile = async (path: string): Promise<ConfigFile> => {
  try {
    const [bytes, info] = await Promise.all([readFile(path), stat(path)])
    return {
      exists: true,
      text: bytes.toString("utf8"),
      fingerprint: fingerprintOf(bytes),
      access: { mode: info.mode & 0o7777, uid: info.uid, gid: info.gid }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    return { exists: false, text: configSkeleton, fingerprint: absentFingerprint, access: { mode: 0o644 } }
  }
}
