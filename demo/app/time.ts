/** The panel's and the log's times: one format, the page's language, as the elements' (src/components/dates.ts), and "in 4 min 10 s". */
const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' })

export const clock = (ms: number) => format.format(new Date(ms))

export function relative(ms: number, now = Date.now()): string {
  const total = Math.round(Math.abs(ms - now) / 1000)
  const units = [['d', 86400], ['h', 3600], ['min', 60], ['s', 1]] as const
  const found = units.findIndex(([, size]) => total >= size)
  const first = found < 0 ? units.length - 1 : found
  // The two largest units: "1 h 0 min", "4 min 10 s", "59 s".
  const text = units
    .slice(first, first + 2)
    .map(([unit, size], i) => `${i === 0 ? Math.floor(total / size) : Math.floor((total % units[first][1]) / size)} ${unit}`)
    .join(' ')
  return ms < now ? `${text} ago` : `in ${text}`
}
