import { randomBytes } from "node:crypto"
import { open, rename, rm } from "node:fs/promises"
import { basename, dirname, join } from "node:path"

/** Who owns the file written and its mode: the old file's, so the daemon's group can still read it. */
export interface FileAccess {
  readonly mode: number
  readonly uid?: number | undefined
  readonly gid?: number | undefined
}

const syncDirectory = async (directory: string): Promise<void> => {
  const handle = await open(directory, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

const written = async (temp: string, data: string, access: FileAccess): Promise<void> => {
  const handle = await open(temp, "wx", access.mode)
  try {
    await handle.writeFile(data)
    // The umask may have taken bits off the mode asked at open.
    await handle.chmod(access.mode)
    if (access.uid !== undefined && access.gid !== undefined) {
      await handle.chown(access.uid, access.gid).catch((error: NodeJS.ErrnoException) => {
        // Not root (a test, a daemon run by hand): the file stays this user's.
        if (error.code !== "EPERM") throw error
      })
    }
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Replaces `path` as a whole or not at all: a temp file beside it, fsynced, renamed over it,
 * the directory fsynced so the rename survives a power cut. A reader (the daemon on SIGHUP)
 * sees the old file or the new one, never half of one.
 */
export const writeAtomically = async (path: string, data: string, access: FileAccess): Promise<void> => {
  const directory = dirname(path)
  const temp = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`)
  try {
    await written(temp, data, access)
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  await syncDirectory(directory)
}
