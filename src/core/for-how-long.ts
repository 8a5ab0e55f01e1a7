/** "30 days", "1 day", "12 hours": a span of seconds in words, for the server's page and the elements alike. */
export function forHowLong(seconds: number): string {
  const days = Math.round(seconds / 86400)
  if (days) return days === 1 ? '1 day' : `${days} days`
  const hours = Math.round(seconds / 3600)
  return hours === 1 ? '1 hour' : `${hours} hours`
}
