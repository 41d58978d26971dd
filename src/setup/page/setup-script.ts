import { scriptButtons } from "./script-buttons.ts"
import { scriptChecks } from "./script-checks.ts"
import { scriptCore } from "./script-core.ts"
import { scriptCourt } from "./script-court.ts"
import { scriptCourts } from "./script-courts.ts"
import { scriptListen } from "./script-listen.ts"
import { scriptSave } from "./script-save.ts"

/** /setup.js: the steps' scripts as one file (one scope: they call each other by name). */
export const setupScript = [scriptCore, scriptChecks, scriptCourt, scriptListen, scriptButtons, scriptSave, scriptCourts].join("\n")
