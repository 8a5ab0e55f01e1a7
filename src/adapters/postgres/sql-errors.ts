/**
 * Reads PostgreSQL errors the same way whatever the driver: `pg` and PGlite put the SQLSTATE in
 * `code` and the constraint in `constraint`; postgres.js uses `code` and `constraint_name`.
 */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

export function constraintName(error: unknown): string | undefined {
  const e = error as { constraint?: unknown; constraint_name?: unknown } | null
  const name = e?.constraint ?? e?.constraint_name
  return typeof name === 'string' ? name : undefined
}

export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'
