/**
 * The elements' times, in one format per language: a moment is its day and time ("Nov 26, 2026,
 * 12:20 AM", "26 nov. 2026, 00:20"), by `Intl.DateTimeFormat` in the element's language; how
 * recent it is, by `Intl.RelativeTimeFormat` ("2 hours ago", "il y a 2 heures").
 */
const formats = new Map<string, Intl.DateTimeFormat>()

/** A moment, as its day and time in `lang`. */
export function when(lang: string, iso: string): string {
  let format = formats.get(lang)
  if (!format) formats.set(lang, (format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' })))
  return format.format(new Date(iso))
}

/** Seconds in each unit, largest first. */
const units = { year: 31536e3, month: 2592e3, week: 604800, day: 86400, hour: 3600, minute: 60, second: 1 }

/** How long ago, in the largest unit that fits: "2 hours ago", "il y a 2 heures", "now". */
export function ago(lang: string, iso: string): string {
  // A time a little ahead of this clock (the server's is another) is now.
  const seconds = Math.min(0, (Date.parse(iso) - Date.now()) / 1000)
  const [unit, size] = Object.entries(units).find(([, size]) => -seconds >= size) ?? ['second', 1]
  return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(Math.round(seconds / size), unit as Intl.RelativeTimeFormatUnit)
}
