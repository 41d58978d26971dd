import { Effect, Schedule } from "effect"
import type { OutboxStorageError } from "./outbox-errors.ts"
import type { OutboxItem } from "./outbox.ts"

/**
 * After the outbox could not be read or written while an item was delivered (disk full, the file
 * locked by another program, a read-only remount), the item's delivery starts over: soon at first,
 * then every 30 s, as long as it takes. Its lane waits meanwhile, so a broken state directory is
 * no tight resend loop, and nothing is lost: what was not written is done again.
 */
export const storageRetry = Schedule.min([Schedule.exponential("1 second"), Schedule.spaced("30 seconds")])

/**
 * Retries `delivery` on `storageRetry`, logging each failure, until `diskFailed` says the disk
 * failed to store writes: then nothing about the file can be trusted until a new process reads it
 * back (see GroupCommit.failed), the daemon ends (reload.ts), and the delivery ends with it.
 */
export const retryOnStorageFailure = <R>(
  item: OutboxItem,
  delivery: Effect.Effect<void, OutboxStorageError, R>,
  diskFailed: () => boolean
): Effect.Effect<void, never, R> =>
  delivery.pipe(
    Effect.tapError((error) =>
      diskFailed()
        ? Effect.void
        : Effect.logError(`could not record the delivery of ${item.kind} #${item.id}: ${error.message}; it is tried again`)
    ),
    Effect.retry({ schedule: storageRetry, while: () => !diskFailed() }),
    Effect.catch(() => Effect.void)
  )
