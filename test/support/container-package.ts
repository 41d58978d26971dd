import { basename } from "node:path"
import type { SystemdContainer } from "../../scripts/support/systemd-container.ts"

/**
 * The venue's package installed in a systemd container the way docs/install.md says, with apt
 * from the file. The container has no network: apt resolves the package's few dependencies
 * (libc6, libstdc++6, libgcc-s1) from what the machine has installed, and fails, saying so, if
 * one is missing, which is a finding about the package, not something to work around with dpkg.
 */
export const installPackage = async (container: SystemdContainer, deb: string): Promise<string> => {
  const inside = `/root/packages/${basename(deb)}`
  container.copyIn(deb, inside)
  const ran = await container.run(["apt-get", "install", "-y", inside], { timeoutMs: 120_000 })
  if (ran.code !== 0) throw new Error(`apt-get install -y ${inside} exited ${ran.code} in the container:\n${ran.stdout}${ran.stderr}`)
  return ran.stdout
}

/** `systemd-analyze security UNIT`'s overall exposure, run inside (the unit as loaded by that systemd). */
export const unitExposure = async (container: SystemdContainer, unit: string): Promise<number> => {
  const ran = await container.run(["systemd-analyze", "security", "--no-pager", unit])
  const line = new RegExp(`Overall exposure level for ${unit.replaceAll(".", "\\.")}: (\\d+\\.\\d+)`).exec(ran.stdout)
  if (line === null) throw new Error(`no exposure in systemd-analyze security ${unit}:\n${ran.stdout}${ran.stderr}`)
  return Number(line[1])
}

/** The fields of /proc/PID/status inside the container (Uid, CapEff, NoNewPrivs …), by name. */
export const processStatus = async (container: SystemdContainer, pid: number): Promise<Readonly<Record<string, string>>> => {
  const ran = await container.run(["cat", `/proc/${pid}/status`])
  if (ran.code !== 0) throw new Error(`no process ${pid} in the container: ${ran.stderr}`)
  return Object.fromEntries(ran.stdout.split("\n").filter((line) => line.includes(":")).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]))
}

/** `systemctl show -p NAME --value UNIT` inside. */
export const unitProperty = async (container: SystemdContainer, unit: string, name: string): Promise<string> =>
  (await container.run(["systemctl", "show", "-p", name, "--value", unit])).stdout.trim()
