/**
 * Whether an MQTT topic matches a subscription filter (`+` one level, `#` the rest).
 * Used to hand each received message to the streams that asked for it, since one client
 * carries every subscription of the daemon. Filters are assumed valid (the broker rejects
 * invalid ones at subscribe time).
 */
export const topicMatches = (filter: string, topic: string): boolean => {
  const filterLevels = filter.split("/")
  const topicLevels = topic.split("/")
  // MQTT 3.1.1 §4.7.2: wildcards at the first level never match topics starting with `$`.
  if (topic.startsWith("$") && (filterLevels[0] === "#" || filterLevels[0] === "+")) return false
  for (let i = 0; i < filterLevels.length; i++) {
    const level = filterLevels[i]
    if (level === "#") return true
    if (i >= topicLevels.length) return false
    if (level !== "+" && level !== topicLevels[i]) return false
  }
  return filterLevels.length === topicLevels.length
}
