/** @auth/pg-adapter's tables, written from its documented schema; the tests that run Auth.js's own adapter create them (serial ids, camelCase columns). */
export const pgAdapterSchema = [
  `CREATE TABLE users (id SERIAL PRIMARY KEY, name text, email text, "emailVerified" timestamptz, image text)`,
  `CREATE TABLE accounts (
    id SERIAL PRIMARY KEY, "userId" integer NOT NULL, type text NOT NULL, provider text NOT NULL,
    "providerAccountId" text NOT NULL, refresh_token text, access_token text, expires_at bigint,
    id_token text, scope text, session_state text, token_type text)`,
  `CREATE TABLE sessions (id SERIAL PRIMARY KEY, "userId" integer NOT NULL, expires timestamptz NOT NULL, "sessionToken" text NOT NULL)`,
  `CREATE TABLE verification_token (identifier text NOT NULL, expires timestamptz NOT NULL, token text NOT NULL, PRIMARY KEY (identifier, token))`,
]
