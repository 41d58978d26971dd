// @ts-check
/**
 * Preloaded into the garbage test's daemon beside the heap probe. V8 drops the bytecode of a
 * function not run for 6 major GCs (--bytecode-old-age; a forced GC does not count): 2.5 MB of
 * start-up code leave the heap at whichever collection reaches that count. In 2 of 5 runs that
 * fell in the measured flood, where it would hide a leak of that size. Without the drop, the
 * heap after a full GC changes only with what the daemon holds. Plain JavaScript, as
 * the heap probe is: a .ts preload would load Node's type stripper into the measured process.
 * (The flag cannot go in NODE_OPTIONS; V8 reads it at every GC, so setting it here works.)
 */
import { setFlagsFromString } from "node:v8"

setFlagsFromString("--no-flush-bytecode")
