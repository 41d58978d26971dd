/** A user as /etc/passwd names it: what dropping to them needs. */
export interface Account {
  readonly name: string
  readonly uid: number
  readonly gid: number
}

const numeric = /^\d+$/u

// Comments and NIS compat lines (+name, -name) name nobody themselves.
const notAnEntry = /^[#+-]/u

const accountOfLine = (line: string): Account | undefined => {
  if (notAnEntry.test(line)) return undefined
  const fields = line.split(":")
  const [name, , uid, gid] = fields
  if (fields.length < 7 || name === undefined || name === "" || !numeric.test(uid ?? "") || !numeric.test(gid ?? "")) return undefined
  return { name, uid: Number(uid), gid: Number(gid) }
}

/**
 * The account of `uid` in /etc/passwd's text, or undefined. Read from the file rather than by
 * `getent`: no child process runs before the drop (a directory service's users are not seen).
 */
export const accountOf = (passwd: string, uid: number): Account | undefined =>
  passwd.split("\n").map(accountOfLine).find((account) => account?.uid === uid)
