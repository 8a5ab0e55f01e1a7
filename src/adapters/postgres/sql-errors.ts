/**
 * Reads PostgreSQL errors the same way whatever the driver: `pg` and PGlite put the SQLSTATE in
 * `code` and the constraint in `constraint`; postgres.js uses `code` and `constraint_name`.
 * `write` turns a violated constraint into the AdapterError the caller names.
 */
import { AdapterError } from '../errors.js'

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

/** Runs a write, turning a unique or foreign-key violation into the AdapterError the caller names. */
export async function write<T>(
  run: () => Promise<T>,
  on: { unique?: (constraint: string | undefined) => AdapterError; foreignKey?: () => AdapterError },
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const code = errorCode(error)
    if (code === UNIQUE_VIOLATION && on.unique) throw Object.assign(on.unique(constraintName(error)), { cause: error })
    if (code === FOREIGN_KEY_VIOLATION && on.foreignKey) throw Object.assign(on.foreignKey(), { cause: error })
    throw error
  }
}

export const unknownUser = (method: string, userId: string) => () =>
  new AdapterError('UnknownUser', `${method}: expected an existing user, but no user has id "${userId}"`)
