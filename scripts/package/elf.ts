// What a package's native files need of the C library: the newest GLIBC_ symbol version any of them
// asks for, read with binutils' readelf, which reads every architecture's ELF files.
import { execFileSync } from "node:child_process"

const compareVersions = (a: string, b: string): number => {
  const left = a.split(".").map(Number)
  const right = b.split(".").map(Number)
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0)
    if (diff !== 0) return diff
  }
  return 0
}

/** The GLIBC_x.y versions one ELF file's dynamic symbols need (readelf --dyn-syms --wide). */
export const glibcVersionsOf = (file: string): ReadonlyArray<string> => {
  const symbols = execFileSync("readelf", ["--dyn-syms", "--wide", file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  return [...new Set([...symbols.matchAll(/@GLIBC_([0-9.]+)/g)].map((match) => match[1]!))]
}

/** The newest glibc version the files need together, e.g. "2.28". */
export const glibcNeeded = (files: ReadonlyArray<string>): string => {
  const versions = files.flatMap(glibcVersionsOf)
  if (versions.length === 0) throw new Error(`no GLIBC_ symbol versions in ${files.join(", ")}: not glibc binaries?`)
  return versions.reduce((newest, version) => (compareVersions(version, newest) > 0 ? version : newest))
}

/** The ELF header's Machine line, e.g. "Advanced Micro Devices X86-64" or "AArch64". */
export const elfMachine = (file: string): string => {
  const header = execFileSync("readelf", ["--file-header", file], { encoding: "utf8" })
  const machine = /^\s*Machine:\s*(.+)$/m.exec(header)?.[1]
  if (machine === undefined) throw new Error(`${file}: no ELF machine in readelf's header`)
  return machine.trim()
}
