/** Clock times and "in 4 min 10 s" for the panel and the log. */
export const clock = (ms: number) => new Date(ms).toLocaleTimeString('en-GB')

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
