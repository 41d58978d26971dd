import type { SerialOpenError } from "../transport/serial.ts"
import { formatOutcome } from "./check-outcome.ts"
import { CommissioningFailure, exitUsage } from "./commissioning-failure.ts"
import { checkSerialAccess } from "./serial-access.ts"

/** A port that would not open, explained with doctor's serial check when that finds the cause (missing, permissions). */
export const portProblem = (error: SerialOpenError): CommissioningFailure => {
  const access = checkSerialAccess("serial port", error.path)
  const message = access.status === "fail"
    ? formatOutcome(access)
    : `serial port ${error.path} cannot be opened: ${error.message} (is another program, such as the running daemon, using it?)`
  return new CommissioningFailure({ message, exitCode: exitUsage })
}
