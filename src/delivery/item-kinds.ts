/** What an outbox item is, and where it stands: shared by the outbox and its SQL statements. */
export type ItemKind = "click" | "score" | "undo"
export type ItemState = "pending" | "delivered" | "warning" | "dead" | "missed"
