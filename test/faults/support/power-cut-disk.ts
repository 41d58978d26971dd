import { join } from "node:path"
import { attachExt4, detachExt4, type FsyncRecord, makeExt4Image, mountSlowDisk, run } from "../../../scripts/support/slow-disk.ts"

/**
 * A slow card that can lose power: ext4 on a loop device whose image lives on the lazy slow FUSE
 * disk (scripts/support/slow-disk.ts). On the bare FUSE mount a write(2) waits for an fsync of the
 * same file in flight (the kernel holds the inode lock through a FUSE fsync), which no journalled
 * ext4 does: a daemon that commits on its event loop would be measured stalling on the fixture, not
 * on the disk. Here ext4 decides what waits for what, as on an SD card, and every flush the loop
 * device sends to the image sleeps the delay (an fdatasync sends two: the journal commit's
 * pre-flush and its forced write).
 *
 * `powerCut()` (writers dead first): ext4 is shut down without flushing its journal
 * (EXT4_IOC_SHUTDOWN with NOLOGFLUSH, as xfstests' godown), so it writes nothing more; the loop
 * device is detached; the FUSE disk drops every image write no flush covered — the card's lost
 * cache; then the image is attached and mounted again at the same path, ext4 replaying its
 * journal. What an fsync completed before the cut is there; what ext4 or the daemon had written
 * only to the page cache or the card's cache is gone.
 */
export interface PowerCutDisk {
  /** The ext4 mount: use it (or a subdirectory) as the daemon's state directory. */
  readonly path: string
  /** About how long each fdatasync takes from now on (half of it per flush). */
  readonly setFsyncDelay: (ms: number) => void
  readonly powerCut: () => Promise<void>
  /** The loop device's flushes of the image so far. */
  readonly flushes: () => ReadonlyArray<FsyncRecord>
  readonly unmount: () => Promise<void>
}

const python = "/usr/bin/python3"
// _IOR('X', 125, __u32); EXT4_GOING_FLAGS_NOLOGFLUSH = 2.
const shutdownScript = "import fcntl, os, struct, sys\nfd = os.open(sys.argv[1], os.O_RDONLY)\nfcntl.ioctl(fd, 0x8004587D, struct.pack('I', 2))"

export const mountPowerCutDisk = async (options: { readonly directory: string; readonly fsyncDelayMs?: number }): Promise<PowerCutDisk> => {
  const fuse = await mountSlowDisk({ directory: options.directory, lazy: true, device: "fuse", fsyncDelayMs: 0 })
  const image = join(fuse.path, "disk.img")
  const mountPoint = join(options.directory, "ext4")
  let loop: string | undefined
  const attach = () => {
    loop = attachExt4(image, mountPoint)
  }
  try {
    makeExt4Image(image)
    attach()
  } catch (error) {
    await fuse.unmount()
    throw error
  }
  const setFsyncDelay = (ms: number) => fuse.setFsyncDelay(ms / 2)
  setFsyncDelay(options.fsyncDelayMs ?? 0)

  let unmounting: Promise<void> | undefined
  return {
    path: mountPoint,
    setFsyncDelay,
    powerCut: async () => {
      if (loop === undefined) throw new Error("the power-cut disk is not attached")
      run(python, ["-c", shutdownScript, mountPoint])
      detachExt4(mountPoint, loop)
      loop = undefined
      await fuse.powerCut()
      attach()
    },
    flushes: () => fuse.fsyncs().filter((f) => f.path === "/disk.img"),
    unmount: () => {
      unmounting ??= (async () => {
        if (loop !== undefined) detachExt4(mountPoint, loop)
        loop = undefined
        await fuse.unmount()
      })()
      return unmounting
    }
  }
}
