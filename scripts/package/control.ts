// DEBIAN/control of the venue's package. What it depends on is only what the carried Node and the
// serialport binding link against (glibc, libstdc++, libgcc): no nodejs, npm or compiler.

import { schemaVersion } from "../../src/delivery/outbox-schema.ts"
import { outboxSchemaField } from "../../src/upgrade/outbox-compatibility.ts"

export type Architecture = "amd64" | "arm64"

export interface ControlFields {
  readonly version: string
  readonly arch: Architecture
  /** The newest GLIBC_ symbol version the package's ELF files need, e.g. "2.28" (elf.ts). */
  readonly glibc: string
  readonly installedSizeKiB: number
}

export const controlFile = ({ version, arch, glibc, installedSizeKiB }: ControlFields): string =>
  [
    "Package: scorebridge",
    `Version: ${version}`,
    `Architecture: ${arch}`,
    "Maintainer: scorebridge maintainers <scorebridge@localhost>",
    `Installed-Size: ${installedSizeKiB}`,
    // Node's official Linux builds link libstdc++ (GLIBCXX_3.4.21, gcc 5) and libgcc_s dynamically;
    // libgcc1 is libgcc-s1's name before Debian 11 and Ubuntu 20.10.
    `Depends: libc6 (>= ${glibc}), libstdc++6 (>= 5.2), libgcc-s1 | libgcc1`,
    "Suggests: mosquitto, prometheus",
    // The outbox schema this version reads and writes: before going back to a kept version, the
    // upgrade guard checks that it can open the outbox (src/upgrade/outbox-compatibility.ts).
    `${outboxSchemaField}: ${schemaVersion}`,
    "Section: net",
    "Priority: optional",
    "Homepage: https://scorebridge.invalid/",
    "Description: venue scoreboards and courtside buttons to the Event Highlights Service",
    " scorebridge reads scoreboard controllers (serial, network, MQTT) and courtside buttons",
    " at a sports venue and sends each real score change and each highlight click, stamped",
    " when it happened, to the Event Highlights Service. It keeps what it could not send yet",
    " across outages, restarts and power cuts. The package carries its own Node.js runtime.",
    ""
  ].join("\n")
