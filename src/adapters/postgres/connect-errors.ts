/**
 * A database that cannot be reached or entered, said as what failed, where, and the fix. Read
 * from the driver's error code (a Node socket code or a SQLSTATE, the same in pg and
 * postgres.js), never from message text, which changes with the server's language.
 */
import { AdapterError } from '../errors.js'
import { errorCode } from './sql-errors.js'

/** What went wrong while connecting. */
export type ConnectionFailure = 'refused' | 'host-not-found' | 'unreachable' | 'authentication' | 'role' | 'database-missing'

export type ConnectionError = AdapterError & { readonly code: 'ConnectionFailed'; readonly reason: ConnectionFailure }

const reasons: Record<string, ConnectionFailure> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'host-not-found',
  EAI_AGAIN: 'host-not-found',
  ETIMEDOUT: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  '28P01': 'authentication', // invalid_password
  '28000': 'role', // invalid_authorization_specification: no such role, or pg_hba.conf lets it not in
  '3D000': 'database-missing', // invalid_catalog_name
}

const pglite = 'or unset DATABASE_URL to use the embedded PGlite database instead'

/**
 * `ConnectionFailed` for an error that means the database at `location` (a URL, its password
 * already hidden) could not be reached or entered; null for any other error.
 */
export function connectionError(error: unknown, location: string): ConnectionError | null {
  const code = errorCode(error)
  const reason = code === undefined ? undefined : reasons[code]
  if (!reason) return null
  const url = URL.canParse(location) ? new URL(location) : null
  const host = url?.hostname || 'localhost'
  const port = url?.port || '5432'
  const role = decodeURIComponent(url?.username ?? '')
  const database = decodeURIComponent(url?.pathname.slice(1) ?? '')
  const what: Record<ConnectionFailure, string> = {
    refused: `could not connect to PostgreSQL at ${location}: nothing accepts connections on ${host} port ${port} (${code}). Start PostgreSQL, or correct the host and port in the URL, ${pglite}`,
    'host-not-found': `could not connect to PostgreSQL at ${location}: the host "${host}" was not found (${code}). Correct the host name in the URL, ${pglite}`,
    unreachable: `could not connect to PostgreSQL at ${location}: ${host} port ${port} did not answer (${code}). Check that the server runs and that the network or firewall lets the connection through, ${pglite}`,
    authentication: `PostgreSQL at ${location} refused the password of ${role ? `role "${role}"` : 'the role'} (${code}). Correct the user and password in the URL, ${pglite}`,
    role: `PostgreSQL at ${location} did not let ${role ? `role "${role}"` : 'the role'} in (${code}): the role does not exist, or pg_hba.conf does not allow it. Create the role${role ? ` (createuser ${role})` : ''}, correct the user in the URL, ${pglite}`,
    'database-missing': `PostgreSQL at ${location} has no database${database ? ` "${database}"` : ' of that name'} (${code}). Create it${database ? ` with: createdb ${database}` : ''}, correct the database name in the URL, ${pglite}`,
  }
  return Object.assign(new AdapterError('ConnectionFailed', what[reason], { cause: error }), { reason }) as ConnectionError
}
