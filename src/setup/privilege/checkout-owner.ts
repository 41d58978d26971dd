/**
 * Whose config `sudo scorebridge setup --config FILE` serves from a checkout: the setup page never
 * runs as root, so a root start drops to the config file's owner. Pure: the facts come from lstat.
 */

/** What lstat said about one path (`missing` when it does not exist). */
export interface PathFacts {
  readonly path: string
  readonly kind: "file" | "directory" | "symlink" | "other" | "missing"
  readonly uid: number
  readonly mode: number
}

export type OwnerDecision =
  | { readonly _tag: "Owner"; readonly uid: number }
  | { readonly _tag: "Refused"; readonly message: string }

const refused = (message: string): OwnerDecision => ({ _tag: "Refused", message })

const installInstead = "or install the package (sudo scorebridge setup then runs it as the scorebridge-setup user)"

// A link's owner says nothing about its target's, and the target could be swapped after the check.
const linked = (facts: PathFacts): OwnerDecision =>
  refused(`${facts.path} is a symbolic link: sudo scorebridge setup runs the page as the config's owner and follows no link to find it. Name the real path: --config "$(readlink -f ${facts.path})"`)

const configShape = (config: PathFacts): OwnerDecision | undefined => {
  if (config.kind === "symlink") return linked(config)
  if (config.kind === "directory" || config.kind === "other") return refused(`${config.path} is not a regular file: name the YAML config with --config`)
  return undefined
}

const directoryShape = (directory: PathFacts): OwnerDecision | undefined => {
  if (directory.kind === "symlink") return linked(directory)
  if (directory.kind === "missing") return refused(`${directory.path} does not exist: install scorebridge first, or name a config in an existing directory with --config`)
  if (directory.kind !== "directory") return refused(`${directory.path} is not a directory: name a config in an existing directory with --config`)
  return undefined
}

const ownedByRoot = (config: PathFacts, directory: PathFacts): OwnerDecision =>
  config.kind === "missing"
    ? refused(`${config.path} does not exist yet and ${directory.path} is owned by root: the setup page will not run as root. Give the directory to the user who runs setup (sudo chown USER ${directory.path}), ${installInstead}`)
    : refused(`${config.path} is owned by root: the setup page will not run as root. Give the file to the user who runs setup (sudo chown USER ${config.path} and its directory), ${installInstead}`)

const groupOrOthersMayWrite = (mode: number): boolean => (mode & 0o022) !== 0

/**
 * The uid to serve as: the config's owner (its directory's while it does not exist yet), never
 * root. Whoever may write the directory can put a file of their own there and so choose that
 * owner: the directory must be the owner's, or writable by its owner alone.
 */
export const configOwner = (config: PathFacts, directory: PathFacts): OwnerDecision => {
  const shape = configShape(config) ?? directoryShape(directory)
  if (shape !== undefined) return shape
  const uid = config.kind === "missing" ? directory.uid : config.uid
  if (uid === 0) return ownedByRoot(config, directory)
  if (directory.uid !== uid && groupOrOthersMayWrite(directory.mode)) {
    return refused(
      `${directory.path} may be written by others than ${config.path}'s owner (uid ${uid}), so anyone of them could choose whom setup runs as: give the directory to that user (sudo chown USER ${directory.path}) or take away the others' write (sudo chmod go-w ${directory.path})`
    )
  }
  return { _tag: "Owner", uid }
}
