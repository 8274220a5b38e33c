/** Reduce Latin text with diacritics and ligatures to plain ASCII where possible. */

const SPECIAL: Record<string, string> = {
  "ß": "ss",
  "æ": "ae",
  "Æ": "AE",
  "œ": "oe",
  "Œ": "OE",
  "ø": "o",
  "Ø": "O",
  "ł": "l",
  "Ł": "L",
  "đ": "d",
  "Đ": "D",
  "þ": "th",
  "&": " and ",
};

/** "Crème brûlée & Smørrebrød" -> "Creme brulee  and  Smorrebrod". */
export function transliterate(text: string): string {
  return text
    .replace(/[ßæÆœŒøØłŁđĐþ&]/g, (ch) => SPECIAL[ch])
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}
