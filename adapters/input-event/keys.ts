/**
 * Key codes (linux/input-event-codes.h) of what courtside buttons tend to
 * send: programmable keypads (F13–F24, digits, letters), presenters (page
 * up/down, F5, Esc, B, dot), media remotes, foot pedals and game
 * controllers (BTN_*). Any other key is configured by its number.
 */
const letters = "QWERTYUIOP ASDFGHJKL ZXCVBNM"
const letterCodes = [16, 30, 44] // first code of each keyboard row

const table: Record<string, number> = {
  KEY_ESC: 1,
  KEY_MINUS: 12,
  KEY_EQUAL: 13,
  KEY_BACKSPACE: 14,
  KEY_TAB: 15,
  KEY_ENTER: 28,
  KEY_DOT: 52,
  KEY_SPACE: 57,
  KEY_F11: 87,
  KEY_F12: 88,
  KEY_KPENTER: 96,
  KEY_HOME: 102,
  KEY_UP: 103,
  KEY_PAGEUP: 104,
  KEY_LEFT: 105,
  KEY_RIGHT: 106,
  KEY_END: 107,
  KEY_DOWN: 108,
  KEY_PAGEDOWN: 109,
  KEY_MUTE: 113,
  KEY_VOLUMEDOWN: 114,
  KEY_VOLUMEUP: 115,
  KEY_NEXTSONG: 163,
  KEY_PLAYPAUSE: 164,
  KEY_PREVIOUSSONG: 165,
  KEY_STOPCD: 166,
  KEY_RECORD: 167,
  BTN_LEFT: 0x110,
  BTN_RIGHT: 0x111,
  BTN_MIDDLE: 0x112,
  BTN_TRIGGER: 0x120,
  BTN_THUMB: 0x121,
  BTN_THUMB2: 0x122,
  BTN_TOP: 0x123,
  BTN_SOUTH: 0x130,
  BTN_EAST: 0x131,
  BTN_NORTH: 0x133,
  BTN_WEST: 0x134
}
// KEY_1..KEY_9 = 2..10, KEY_0 = 11
for (let digit = 1; digit <= 9; digit++) table[`KEY_${digit}`] = digit + 1
table.KEY_0 = 11
letters.split(" ").forEach((row, r) => [...row].forEach((letter, i) => (table[`KEY_${letter}`] = letterCodes[r]! + i)))
// F1..F10 = 59..68, F13..F24 = 183..194
for (let n = 1; n <= 10; n++) table[`KEY_F${n}`] = 58 + n
for (let n = 13; n <= 24; n++) table[`KEY_F${n}`] = 170 + n
// BTN_0..BTN_9 = 0x100..0x109 (foot pedals, button boxes)
for (let n = 0; n <= 9; n++) table[`BTN_${n}`] = 0x100 + n

export const keyCodes: Readonly<Record<string, number>> = table
export const keyNames = Object.keys(table)

/** KEY_MAX: codes above it do not exist. */
export const maxKeyCode = 0x2ff
