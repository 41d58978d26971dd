import type { Account } from "./checkout-passwd.ts"

/** The values of one `Name:` line of /proc/<pid>/status (or /proc/<pid>/task/<tid>/status), or undefined. */
export const statusField = (status: string, name: string): ReadonlyArray<string> | undefined => {
  const line = status.split("\n").find((candidate) => candidate.startsWith(`${name}:`))
  return line?.slice(name.length + 1).trim().split(/\s+/u)
}

const idsProblem = (status: string, name: "Uid" | "Gid", id: number): string | undefined => {
  const ids = statusField(status, name)
  // Real, effective, saved and filesystem ids: a saved 0 could become root again.
  return ids?.length === 4 && ids.every((value) => value === String(id)) ? undefined : `${name} is ${ids?.join(" ") ?? "missing"}, not ${id} four times`
}

const capabilityProblem = (status: string, name: string, required: boolean): string | undefined => {
  const mask = statusField(status, name)?.[0]
  if (mask === undefined) return required ? `${name} is missing` : undefined
  return /^0+$/u.test(mask) ? undefined : `${name} is ${mask}, not 0`
}

/**
 * What is still privileged about one thread after the drop, as the kernel reports it, or
 * undefined when it holds only `account`'s ids and no capability (effective, permitted, ambient).
 */
export const statusProblem = (status: string, account: Account): string | undefined =>
  idsProblem(status, "Uid", account.uid) ??
    idsProblem(status, "Gid", account.gid) ??
    capabilityProblem(status, "CapEff", true) ??
    capabilityProblem(status, "CapPrm", true) ??
    capabilityProblem(status, "CapAmb", false)
