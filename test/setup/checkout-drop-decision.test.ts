import { describe, expect, it } from "vitest"
import { configOwner, type PathFacts } from "../../src/setup/privilege/checkout-owner.ts"
import { accountOf } from "../../src/setup/privilege/checkout-passwd.ts"
import { statusProblem } from "../../src/setup/privilege/checkout-verify.ts"

/**
 * The pure parts of `sudo scorebridge setup --config FILE`'s drop from root (checkout-drop.ts):
 * whose config it is, who that is in /etc/passwd, and whether the kernel agrees the drop held.
 * checkout-drop-process.test.ts proves the process does it.
 */
const file = (uid: number, mode = 0o100644): PathFacts => ({ path: "/srv/court/config.yaml", kind: "file", uid, mode })
const dir = (uid: number, mode = 0o40755): PathFacts => ({ path: "/srv/court", kind: "directory", uid, mode })
const refusal = (config: PathFacts, directory: PathFacts) => {
  const decision = configOwner(config, directory)
  expect(decision._tag).toBe("Refused")
  return decision._tag === "Refused" ? decision.message : ""
}

describe("whose config it is (checkout-owner.ts)", () => {
  it("a file owned by a user, in that user's directory or one only its owner may write: that user", () => {
    expect(configOwner(file(1000), dir(1000, 0o40775))).toEqual({ _tag: "Owner", uid: 1000 })
    expect(configOwner(file(1000), dir(0, 0o40755))).toEqual({ _tag: "Owner", uid: 1000 })
  })

  it("a file owned by root: refused, saying to chown it or install the package", () => {
    expect(refusal(file(0), dir(1000))).toBe(
      "/srv/court/config.yaml is owned by root: the setup page will not run as root. Give the file to the user who runs setup (sudo chown USER /srv/court/config.yaml and its directory), or install the package (sudo scorebridge setup then runs it as the scorebridge-setup user)"
    )
  })

  it("no config yet: its directory's owner, and root's directory is refused", () => {
    const missing: PathFacts = { ...file(-1), kind: "missing" }
    expect(configOwner(missing, dir(1000))).toEqual({ _tag: "Owner", uid: 1000 })
    expect(refusal(missing, dir(0))).toMatch(/^\/srv\/court\/config\.yaml does not exist yet and \/srv\/court is owned by root: .*sudo chown USER \/srv\/court/u)
  })

  it("a symbolic link, as the file or as its directory: refused, naming the real path to give", () => {
    expect(refusal({ ...file(1000), kind: "symlink" }, dir(1000))).toMatch(/^\/srv\/court\/config\.yaml is a symbolic link: .*--config "\$\(readlink -f \/srv\/court\/config\.yaml\)"$/u)
    expect(refusal(file(1000), { ...dir(1000), kind: "symlink" })).toMatch(/^\/srv\/court is a symbolic link/u)
  })

  it("a directory others may write (group, others, even sticky /tmp) and the owner does not own: refused", () => {
    for (const mode of [0o40775, 0o40757, 0o41777]) {
      expect(refusal(file(1000), dir(0, mode))).toMatch(/^\/srv\/court may be written by others than \/srv\/court\/config\.yaml's owner \(uid 1000\).*sudo chmod go-w \/srv\/court\)$/u)
      expect(refusal(file(1000), dir(1001, mode))).toMatch(/may be written by others/u)
    }
  })

  it("not a file, or no directory: refused with what to name", () => {
    expect(refusal({ ...file(1000), kind: "directory" }, dir(1000))).toMatch(/is not a regular file: name the YAML config with --config/u)
    expect(refusal({ ...file(1000), kind: "other" }, dir(1000))).toMatch(/is not a regular file/u)
    expect(refusal({ ...file(-1), kind: "missing" }, { ...dir(-1), kind: "missing" })).toMatch(/^\/srv\/court does not exist: install scorebridge first/u)
    expect(refusal(file(1000), { ...dir(1000), kind: "file" })).toMatch(/^\/srv\/court is not a directory/u)
  })
})

describe("who the owner is (checkout-passwd.ts)", () => {
  const passwd = [
    "root:x:0:0:root:/root:/bin/bash",
    "# a comment:x:5:5:::",
    "+nis",
    "broken:x:notanumber:7:::",
    "technician:x:1000:100:Venue technician,,,:/home/technician:/bin/bash",
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
    ""
  ].join("\n")

  it("finds the user by uid, with its primary group", () => {
    expect(accountOf(passwd, 1000)).toEqual({ name: "technician", uid: 1000, gid: 100 })
    expect(accountOf(passwd, 65534)).toEqual({ name: "nobody", uid: 65534, gid: 65534 })
  })

  it("a uid it does not name, or only on a malformed line: none", () => {
    expect(accountOf(passwd, 4242)).toBeUndefined()
    expect(accountOf(passwd, 5)).toBeUndefined()
  })
})

describe("whether the drop held (checkout-verify.ts)", () => {
  const nobody = { name: "nobody", uid: 65534, gid: 65534 }
  const status = (lines: Record<string, string>) =>
    Object.entries({ Name: "node", Uid: "65534\t65534\t65534\t65534", Gid: "65534\t65534\t65534\t65534", CapInh: "0000000000000000", CapPrm: "0000000000000000", CapEff: "0000000000000000", CapAmb: "0000000000000000", ...lines })
      .map(([name, value]) => `${name}:\t${value}`).join("\n")

  it("the owner's ids four times and no capability: none", () => {
    expect(statusProblem(status({}), nobody)).toBeUndefined()
  })

  it("a saved or filesystem uid still 0, a gid not the owner's, or any capability left: named", () => {
    expect(statusProblem(status({ Uid: "65534\t65534\t0\t65534" }), nobody)).toBe("Uid is 65534 65534 0 65534, not 65534 four times")
    expect(statusProblem(status({ Gid: "65534\t65534\t65534\t0" }), nobody)).toBe("Gid is 65534 65534 65534 0, not 65534 four times")
    expect(statusProblem(status({ CapEff: "000001ffffffffff" }), nobody)).toBe("CapEff is 000001ffffffffff, not 0")
    expect(statusProblem(status({ CapPrm: "0000000000000080" }), nobody)).toBe("CapPrm is 0000000000000080, not 0")
    expect(statusProblem(status({ CapAmb: "0000000000000400" }), nobody)).toBe("CapAmb is 0000000000000400, not 0")
  })

  it("a status without the lines it needs is not taken for a dropped one", () => {
    expect(statusProblem("Name:\tnode\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534", nobody)).toBe("CapEff is missing")
    expect(statusProblem("Name:\tnode", nobody)).toBe("Uid is missing, not 65534 four times")
  })
})
