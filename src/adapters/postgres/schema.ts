/**
 * latchkey's tables, as numbered migrations. A migration never changes once released; a change
 * to the schema is a new entry at the end of the list.
 *
 * Portability: this SQL must also run on PostgreSQL-compatible distributed engines (CockroachDB,
 * YugabyteDB) and on PGlite, so it avoids:
 * - SERIAL, sequences and identity columns: ids are text, made in JS with crypto.randomUUID()
 *   (sequential keys also make write hot spots on distributed engines);
 * - triggers, stored procedures, rules, LISTEN/NOTIFY, extensions;
 * - CREATE INDEX CONCURRENTLY and other statements that cannot run inside a transaction;
 * - relying on advisory locks for correctness: `migrate` takes one when the engine has it, but the
 *   version table's primary key alone keeps two migrators from applying the same step, and
 *   `migrate` retries on a conflict;
 * - types beyond text, boolean, bigint, double precision, timestamptz and jsonb;
 * - functions beyond PostgreSQL 11's built-ins (migration 4 uses sha256, encode and convert_to;
 *   CockroachDB's sha256 answers hex text, not bytes, so that step is not verified there).
 * Column names are snake_case without quotes; names are unqualified so `search_path` picks the
 * schema (tests isolate each run in its own schema that way).
 */
export interface Migration {
  version: number
  name: string
  statements: string[]
}

/** The table that records which migrations have run. */
export const VERSION_TABLE = 'latchkey_schema_version'

export const createVersionTable = `CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    statements: [
      `CREATE TABLE users (
        id text PRIMARY KEY,
        email text NOT NULL,
        email_verified timestamptz,
        name text,
        image text,
        CONSTRAINT users_email_unique UNIQUE (email)
      )`,
      `CREATE TABLE accounts (
        provider text NOT NULL,
        provider_account_id text NOT NULL,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL,
        access_token text,
        refresh_token text,
        id_token text,
        scope text,
        token_type text,
        expires_in double precision,
        expires_at double precision,
        extra jsonb NOT NULL DEFAULT '{}'::jsonb,
        CONSTRAINT accounts_pkey PRIMARY KEY (provider, provider_account_id)
      )`,
      `CREATE INDEX accounts_user_id_idx ON accounts (user_id)`,
      `CREATE TABLE sessions (
        session_token text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        expires timestamptz NOT NULL
      )`,
      `CREATE INDEX sessions_user_id_idx ON sessions (user_id)`,
      `CREATE TABLE verification_tokens (
        identifier text NOT NULL,
        token text NOT NULL,
        expires timestamptz NOT NULL,
        CONSTRAINT verification_tokens_pkey PRIMARY KEY (identifier, token)
      )`,
      `CREATE TABLE authenticators (
        credential_id text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider_account_id text NOT NULL,
        credential_public_key text NOT NULL,
        counter bigint NOT NULL,
        credential_device_type text NOT NULL,
        credential_backed_up boolean NOT NULL,
        transports text
      )`,
      `CREATE INDEX authenticators_user_id_idx ON authenticators (user_id)`,
    ],
  },
  {
    version: 2,
    name: 'rate limits',
    statements: [
      // One row per counted key (see src/adapters/postgres/rate-limit-store.ts); reset_at in epoch milliseconds.
      `CREATE TABLE rate_limits (
        key text PRIMARY KEY,
        hits bigint NOT NULL,
        reset_at bigint NOT NULL
      )`,
      `CREATE INDEX rate_limits_reset_at_idx ON rate_limits (reset_at)`,
    ],
  },
  {
    version: 3,
    name: 'passkey creation time',
    // Null for the passkeys registered before it: their time was never kept.
    statements: [`ALTER TABLE authenticators ADD COLUMN created_at timestamptz`],
  },
  {
    version: 4,
    name: 'hashed session tokens',
    statements: [
      // The server now stores a session cookie's SHA-256 (hex) instead of the cookie itself (see
      // src/server/kernel/session-token.ts): hash the rows written in clear, exactly as the server does,
      // so every session open at the upgrade stays signed in. sha256(bytea) is PostgreSQL 11+.
      `UPDATE sessions SET session_token = encode(sha256(convert_to(session_token, 'UTF8')), 'hex')`,
    ],
  },
  {
    version: 5,
    name: 'device-bound sessions',
    // The device's public key and the DBSC session id of a bound session (src/server/features/dbsc/).
    statements: [`ALTER TABLE sessions ADD COLUMN device_binding jsonb`],
  },
  {
    version: 6,
    name: 'session sign-in time and device',
    // Null for the sessions made before it: their sign-in time and browser were never kept.
    statements: [`ALTER TABLE sessions ADD COLUMN created_at timestamptz`, `ALTER TABLE sessions ADD COLUMN user_agent text`],
  },
  {
    version: 7,
    name: 'account refresh errors',
    // Set when the provider refused an account's refresh token (src/server/features/oauth/access-token.ts).
    statements: [`ALTER TABLE accounts ADD COLUMN refresh_error text`],
  },
  {
    version: 8,
    name: 'verification token expiry index',
    // Each one-time write purges a bounded batch of expired tokens (src/server/kernel/one-time-secrets.ts).
    statements: [`CREATE INDEX verification_tokens_expires_idx ON verification_tokens (expires)`],
  },
  {
    version: 9,
    name: 'session sign-in provider',
    // The provider a session's sign-in used (a credentials sign-in counts as a way in: src/server/sign-in/ways.ts).
    statements: [`ALTER TABLE sessions ADD COLUMN sign_in_provider text`],
  },
  {
    version: 10,
    name: 'one-time email codes',
    // One code per address, hashed; attempts counted in the row (src/adapters/postgres/verification-codes.ts).
    statements: [
      `CREATE TABLE verification_codes (
        identifier text PRIMARY KEY,
        code text NOT NULL,
        expires timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0
      )`,
    ],
  },
  {
    version: 11,
    name: 'second factors',
    // Authenticator apps and recovery-code hashes (src/adapters/postgres/factors.ts). The secret is
    // sealed by the server; last_used_step is compared and set in one UPDATE so a code works once.
    statements: [
      `CREATE TABLE factors (
        id text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL,
        secret text NOT NULL,
        label text,
        confirmed_at timestamptz,
        created_at timestamptz NOT NULL,
        last_used_step bigint
      )`,
      `CREATE INDEX factors_user_id_idx ON factors (user_id)`,
      `CREATE TABLE recovery_codes (
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code text NOT NULL,
        CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, code)
      )`,
      // How each session's sign-in proved the user (session.amr), space-separated.
      `ALTER TABLE sessions ADD COLUMN amr text`,
    ],
  },
  {
    version: 12,
    name: 'passwords',
    // One password hash (a PHC string made by the server) per user, beside the user row so a read of
    // the user never carries it (src/adapters/postgres/passwords.ts).
    statements: [
      `CREATE TABLE passwords (
        user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        hash text NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 13,
    name: 'passkey names',
    // The authenticator model (its AAGUID, which names it in the passkey list) and the name the user gave it.
    statements: [`ALTER TABLE authenticators ADD COLUMN aaguid text`, `ALTER TABLE authenticators ADD COLUMN name text`],
  },
  {
    version: 14,
    name: 'verification code expiry index',
    // Each one-time write purges a bounded batch of expired codes too (src/server/kernel/one-time-secrets.ts).
    statements: [`CREATE INDEX verification_codes_expires_idx ON verification_codes (expires)`],
  },
]

/** The newest schema version this build of latchkey knows. */
export const LATEST_VERSION = migrations[migrations.length - 1]!.version
