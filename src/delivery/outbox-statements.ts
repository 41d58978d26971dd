import type { DatabaseSync } from "node:sqlite"

/**
 * The outbox's SQL, prepared once per open database. Rows come back as SQLite gives them and are
 * decoded by outbox-item.ts. The lists have no LIMIT: they are iterated, stepping only as far as
 * the rows the caller keeps, so a row that cannot be read does not take a good one's place.
 */

/**
 * The lanes with pending items, as `lane (place, kind, id)`: the oldest pending item's id of each
 * place and kind (null where a place has none of a kind). A loose index scan over items_pending: a
 * few seeks per place instead of reading every pending item, so a long outage's backlog does not
 * slow down each scheduler tick. The kinds are listed because the table's CHECK allows no others.
 */
const pendingLanes = `WITH RECURSIVE
  place (name) AS (
    SELECT (SELECT place FROM items WHERE state = 'pending' ORDER BY place LIMIT 1)
    UNION ALL
    SELECT (SELECT n.place FROM items n WHERE n.state = 'pending' AND n.place > place.name
            ORDER BY n.place LIMIT 1)
    FROM place WHERE place.name IS NOT NULL),
  kind (name) AS (VALUES ('click'), ('score'), ('undo')),
  lane (place, kind, id) AS (
    SELECT place.name, kind.name, (SELECT MIN(h.id) FROM items h
                                   WHERE h.state = 'pending' AND h.place = place.name AND h.kind = kind.name)
    FROM place CROSS JOIN kind WHERE place.name IS NOT NULL)`

export const outboxStatements = (db: DatabaseSync) => ({
  // No RETURNING: node:sqlite's get() returns the row at the first step and drops the error of the
  // autocommit that follows (SQLITE_FULL), which would acknowledge an item that was rolled back.
  insert: db.prepare(
    `INSERT INTO items (place, kind, payload, event_key, dedupe_key, created_at, not_before, received_as)
     VALUES ($place, $kind, $payload, $eventKey, $dedupeKey, $createdAt, $notBefore, $receivedAs)`
  ),
  // Only an item nobody has sent yet can be merged away: one already on its way stays a click.
  merged: db.prepare(
    `UPDATE items SET state = 'warning', last_error = $lastError, result = $result, settled_at = $settledAt
     WHERE id = $id AND state = 'pending' AND sent_at IS NULL`
  ),
  storedFrom: db.prepare("SELECT 1 AS found FROM items WHERE received_as = $receivedAs AND created_at >= $since LIMIT 1"),
  byDedupeKey: db.prepare("SELECT * FROM items WHERE dedupe_key = $dedupeKey"),
  byId: db.prepare("SELECT * FROM items WHERE id = $id"),
  // For each place and kind, its oldest pending item (see pendingLanes): the whole rows.
  heads: db.prepare(`${pendingLanes} SELECT * FROM items WHERE id IN (SELECT id FROM lane) ORDER BY id`),
  // The same lanes without their items: place, kind and head id, nothing to decode. The scheduler
  // reads this at every wake; each lane's own read then takes only what it can start. A kind a
  // place has none of comes with a null id (lanesOf passes over it).
  lanes: db.prepare(`${pendingLanes} SELECT place, kind, id FROM lane ORDER BY id`),
  // A seek into items_pending: the lane's own items only, however long the other lanes' backlogs.
  // `$after` 0 for the whole lane; a head's id for what follows it.
  // INDEXED BY: left to itself, the planner takes items_lane and steps over the lane's settled items.
  pending: db.prepare(
    `SELECT * FROM items INDEXED BY items_pending
     WHERE state = 'pending' AND place = $place AND kind = $kind AND id > $after ORDER BY id`
  ),
  // A place's score lanes (outbox-score-heads.ts): seeks into items_pending_event, one per event.
  // The newest pending score's event: whose the live lane is while the live event is not known.
  newestScoreEvent: db.prepare(
    // INDEXED BY: left to itself, the planner walks items_lane back through every settled score.
    `SELECT event_key FROM items INDEXED BY items_pending
     WHERE state = 'pending' AND place = $place AND kind = 'score' ORDER BY id DESC LIMIT 1`
  ),
  // `IS`: the null key (entries captured before any answer named the event) is a lane too.
  scoresOfEvent: db.prepare(
    "SELECT * FROM items WHERE state = 'pending' AND place = $place AND kind = 'score' AND event_key IS $eventKey ORDER BY id"
  ),
  scoresOfEventNewest: db.prepare(
    "SELECT * FROM items WHERE state = 'pending' AND place = $place AND kind = 'score' AND event_key IS $eventKey ORDER BY id DESC"
  ),
  // Loose index scan: one seek per event the place has pending scores of (a weekend's matches, not
  // their entries), each with its oldest pending score's id, oldest first. `$live` is left out.
  pastScoreEvents: db.prepare(
    `WITH RECURSIVE event (key) AS (
       SELECT (SELECT event_key FROM items WHERE state = 'pending' AND place = $place AND kind = 'score'
               AND event_key IS NOT NULL ORDER BY event_key LIMIT 1)
       UNION ALL
       SELECT (SELECT n.event_key FROM items n WHERE n.state = 'pending' AND n.place = $place AND n.kind = 'score'
               AND n.event_key > event.key ORDER BY n.event_key LIMIT 1)
       FROM event WHERE event.key IS NOT NULL)
     SELECT key AS event_key,
       (SELECT MIN(o.id) FROM items o WHERE o.state = 'pending' AND o.place = $place AND o.kind = 'score'
        AND o.event_key = event.key) AS first_id
     FROM event WHERE key IS NOT NULL AND key IS NOT $live ORDER BY first_id`
  ),
  lastOf: db.prepare("SELECT * FROM items WHERE place = $place AND kind = $kind ORDER BY id DESC"),
  recent: db.prepare("SELECT * FROM items WHERE place = $place ORDER BY id DESC"),
  deadLetters: db.prepare("SELECT * FROM items WHERE state = 'dead' ORDER BY id DESC"),
  // From the counts the triggers keep (schema 6): a row per place, kind, state and event, never
  // the items themselves.
  counts: db.prepare(
    `SELECT place, kind, state, SUM(count) AS count FROM item_counts
     GROUP BY place, kind, state ORDER BY place, kind, state`
  ),
  countsCleared: db.prepare("DELETE FROM item_counts"),
  countsFromItems: db.prepare(
    `INSERT INTO item_counts (place, kind, state, event_key, count)
     SELECT place, kind, state, event_key, COUNT(*) FROM items GROUP BY place, kind, state, event_key`
  ),
  pendingScoresByEvent: db.prepare(
    `SELECT place, event_key, count FROM item_counts WHERE state = 'pending' AND kind = 'score'
     ORDER BY place, event_key`
  ),
  settle: db.prepare(
    `UPDATE items SET state = $state, attempts = attempts + 1, last_error = $lastError,
       result = $result, settled_at = $settledAt
     WHERE id = $id`
  ),
  missed: db.prepare(
    "UPDATE items SET state = 'missed', last_error = $lastError, result = $result, settled_at = $settledAt WHERE id = $id"
  ),
  reschedule: db.prepare(
    `UPDATE items SET attempts = attempts + 1, last_error = $lastError, not_before = $notBefore,
       sent_at = CASE WHEN $inDoubt THEN sent_at ELSE NULL END,
       sent_to = CASE WHEN $inDoubt THEN sent_to ELSE NULL END
     WHERE id = $id`
  ),
  sending: db.prepare("UPDATE items SET sent_at = $sentAt, sent_to = $sentTo WHERE id = $id"),
  notSent: db.prepare("UPDATE items SET sent_at = NULL, sent_to = NULL WHERE id = $id AND state = 'pending'"),
  setEventKey: db.prepare("UPDATE items SET event_key = $eventKey WHERE id = $id"),
  prune: db.prepare(
    `DELETE FROM items WHERE state IN ('delivered', 'warning') AND settled_at < $settledBefore`
  ),
  // A click's follow-up, written in its settlement's transaction; a click settled twice (a
  // read-back after a restart) keeps its first.
  followUpInsert: db.prepare(
    `INSERT OR IGNORE INTO follow_ups (click_id, place, moment_key, pressed_at, accepted_at, next_read_at)
     SELECT id, place, $momentKey, created_at, $acceptedAt, $nextReadAt FROM items WHERE id = $id AND kind = 'click'`
  ),
  // An undo took the moment back: its clip, if any, is gone too.
  followUpDeleted: db.prepare(
    `UPDATE follow_ups SET outcome = 'deleted', detail = $detail, settled_at = $settledAt WHERE click_id = $clickId`
  ),
  followUpsDue: db.prepare(
    "SELECT * FROM follow_ups WHERE outcome IS NULL AND next_read_at <= $now ORDER BY next_read_at, click_id"
  ),
  followUpNext: db.prepare("SELECT MIN(next_read_at) AS at FROM follow_ups WHERE outcome IS NULL"),
  followUpRead: db.prepare(
    `UPDATE follow_ups SET reads = reads + 1, next_read_at = $nextReadAt, last_error = $lastError
     WHERE click_id = $clickId AND outcome IS NULL`
  ),
  followUpSettle: db.prepare(
    `UPDATE follow_ups SET reads = reads + $read, outcome = $outcome, detail = $detail, last_error = $lastError,
       settled_at = $settledAt
     WHERE click_id = $clickId AND outcome IS NULL`
  ),
  followUpOf: db.prepare("SELECT * FROM follow_ups WHERE click_id = $clickId"),
  followUpsOfPlace: db.prepare("SELECT * FROM follow_ups WHERE place = $place ORDER BY click_id DESC"),
  followUpsOpen: db.prepare("SELECT COUNT(*) AS count FROM follow_ups WHERE outcome IS NULL"),
  followUpsSettled: db.prepare(
    "SELECT place, COUNT(*) AS count, MAX(settled_at) AS last FROM follow_ups WHERE outcome IS NOT NULL GROUP BY place"
  ),
  // Kept as long as their clicks: pruned with the delivered items they follow.
  followUpPrune: db.prepare(
    "DELETE FROM follow_ups WHERE outcome IS NOT NULL AND click_id NOT IN (SELECT id FROM items)"
  ),
  identityOf: db.prepare("SELECT identity FROM press_identities WHERE slot = $slot"),
  identityStore: db.prepare(
    `INSERT INTO press_identities (slot, identity, item_id, seen_at) VALUES ($slot, $identity, $itemId, $seenAt)
     ON CONFLICT (slot) DO UPDATE SET identity = excluded.identity, item_id = excluded.item_id, seen_at = excluded.seen_at`
  )
})

export type OutboxStatements = ReturnType<typeof outboxStatements>
