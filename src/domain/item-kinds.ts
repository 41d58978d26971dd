/**
 * What an outbox item is, and where it stands: shared by the outbox, its SQL and the decoding of
 * its rows. The lists match the table's CHECKs (outbox-schema.ts).
 */
export const itemKinds = ["click", "score", "undo"] as const
export type ItemKind = (typeof itemKinds)[number]

export const itemStates = ["pending", "delivered", "warning", "dead", "missed"] as const
export type ItemState = (typeof itemStates)[number]
