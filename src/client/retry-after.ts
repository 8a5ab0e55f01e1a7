/** The seconds a `Retry-After` header asks for (429, 503); undefined without one, or for a date. */
export function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after')?.trim()
  return value && /^\d+$/.test(value) ? Number(value) : undefined
}
