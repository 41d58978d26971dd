/** Sport codes from the service document's "Sport codes" section; `GET /public/sports` answers with this list. */
export const sportCodes = [
  "ballhockey", "baseball", "basketball", "beachvolleyball", "billiard", "bowling", "cheer", "cricket",
  "dekhockey", "football", "frontenis", "futsal", "golf", "handball", "hockey", "lacrosse", "other", "padel",
  "pickleball", "pongbeyond", "rollerderby", "rugby", "soccer", "softball", "swimming", "tennis", "unihockey",
  "volleyball", "waterpolo", "wrestling"
] as const

export type SportCode = (typeof sportCodes)[number]
