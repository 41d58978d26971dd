/** The service's sport codes (API "Sport codes"), for decoders that are not tied to one sport. */
export const apiSports = [
  "ballhockey", "baseball", "basketball", "beachvolleyball", "billiard", "bowling", "cheer", "cricket", "dekhockey",
  "football", "frontenis", "futsal", "golf", "handball", "hockey", "lacrosse", "other", "padel", "pickleball",
  "pongbeyond", "rollerderby", "rugby", "soccer", "softball", "swimming", "tennis", "unihockey", "volleyball",
  "waterpolo", "wrestling"
] as const
