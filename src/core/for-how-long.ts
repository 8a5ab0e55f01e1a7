/** "30 days", "30 jours", "1 hour": a span of seconds in `lang`'s words and plurals, for the server's pages and the elements alike. */
export function forHowLong(seconds: number, lang = 'en'): string {
  const days = Math.round(seconds / 86400)
  const [count, unit] = days ? [days, 'day'] : [Math.round(seconds / 3600), 'hour']
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(count)
}
