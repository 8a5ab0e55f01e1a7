/**
 * A database that stops answering is `StoreUnavailable` (503, Retry-After), told apart from a
 * broken rule by the driver's code; a read that meets it is sent once more, a write never.
 * A scripted Queryable here; test/adapters/postgres-outage.test.ts meets the same on a real server.
 */
import { describe, expect, test } from 'vitest'
import { AdapterError } from '../../src/adapters/errors.js'
import { isStoreOutage, survivingOutages } from '../../src/adapters/postgres/store-outage.js'
import type { Queryable } from '../../src/adapters/postgres/queryable.js'

const coded = (code: string, message = 'driver words') => Object.assign(new Error(message), { code })

describe('isStoreOutage', () => {
  test.each([
    ['57P01 admin_shutdown (a fast restart)', coded('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash_shutdown', coded('57P02')],
    ['57P03 cannot_connect_now (starting up)', coded('57P03', 'the database system is starting up')],
    ['08006 connection_failure', coded('08006')],
    ['08001 sqlclient_unable_to_establish_sqlconnection', coded('08001')],
    ['08P01 protocol_violation', coded('08P01')],
    ['25006 read_only_sql_transaction (a write on a replica during a failover)', coded('25006', 'cannot execute INSERT in a read-only transaction')],
    ['53300 too_many_connections', coded('53300')],
    ['ECONNREFUSED', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5442')],
    ['ECONNRESET', coded('ECONNRESET')],
    ['ETIMEDOUT', coded('ETIMEDOUT')],
    ["postgres.js's CONNECTION_CLOSED", coded('CONNECTION_CLOSED')],
    ['node-postgres: Connection terminated unexpectedly (no code)', new Error('Connection terminated unexpectedly')],
    ['node-postgres: Connection terminated due to connection timeout', new Error('Connection terminated due to connection timeout')],
    ['its pool: timeout exceeded when trying to connect', new Error('timeout exceeded when trying to connect')],
    ["node's AggregateError of both addresses refused", new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], '')],
  ])('%s is an outage', (_name, error) => {
    expect(isStoreOutage(error)).toBe(true)
  })

  test.each([
    ['23505 unique_violation', coded('23505')],
    ['42P01 undefined_table', coded('42P01')],
    ['42601 syntax_error', coded('42601')],
    ['57014 query_canceled (a statement timeout)', coded('57014')],
    ['a coded error that only says "Connection terminated"', coded('XX000', 'Connection terminated')],
    ['a plain Error', new Error('boom')],
    ['an AdapterError', new AdapterError('DuplicateEmail', 'taken')],
    ['a string', 'Connection terminated'],
    ['null', null],
  ])('%s is not', (_name, error) => {
    expect(isStoreOutage(error)).toBe(false)
  })
})

/** A Queryable that answers each statement with the next scripted outcome, and records what it was sent. */
function scripted(...outcomes: Array<Error | 'ok'>) {
  const sent: string[] = []
  const db: Queryable = {
    async query<T>(sql: string) {
      sent.push(sql)
      const outcome = outcomes.shift() ?? 'ok'
      if (outcome !== 'ok') throw outcome
      return { rows: [{ sent: sent.length }] as T[] }
    },
    async transaction(fn) {
      sent.push('BEGIN')
      const outcome = outcomes.shift() ?? 'ok'
      if (outcome !== 'ok') throw outcome
      return fn(db)
    },
    end: async () => void sent.push('END'),
  }
  return { db, sent }
}

const lost = () => new Error('Connection terminated unexpectedly')

describe('survivingOutages', () => {
  test('a read that meets a lost connection is sent once more, and its answer is the second one', async () => {
    const { db, sent } = scripted(lost(), 'ok')
    const { rows } = await survivingOutages(db).query('SELECT * FROM sessions WHERE session_token = $1', ['t'])
    expect(rows).toEqual([{ sent: 2 }])
    expect(sent).toHaveLength(2)
  })

  test('a read that meets it twice is StoreUnavailable: 503, Retry-After 3, a message without the driver words, the cause kept', async () => {
    const { db, sent } = scripted(lost(), coded('57P03', 'the database system is starting up'))
    const error = (await survivingOutages(db).query('  select 1', []).catch((e: unknown) => e)) as AdapterError
    expect(error).toBeInstanceOf(AdapterError)
    expect(error.code).toBe('StoreUnavailable')
    expect(error.status).toBe(503)
    expect(error.retryAfter).toBe(3)
    expect(error.message).toBe('The database did not answer; try again in a few seconds')
    expect(error.message).not.toMatch(/starting up/)
    expect((error.cause as { code: string }).code).toBe('57P03')
    expect(sent).toHaveLength(2)
  })

  test.each([
    ['an INSERT', 'INSERT INTO users (id) VALUES ($1)'],
    ['a DELETE ... RETURNING (a one-time secret used)', 'DELETE FROM verification_tokens WHERE identifier = $1 RETURNING *'],
    ['a WITH ... DELETE', 'WITH gone AS (DELETE FROM rate_limits RETURNING 1) SELECT count(*) FROM gone'],
    ['a SELECT ... FOR UPDATE', 'SELECT * FROM users WHERE id = $1 FOR UPDATE'],
  ])('%s that meets an outage is not sent again: it may have landed', async (_name, sql) => {
    const { db, sent } = scripted(coded('57P01'), 'ok')
    const error = (await survivingOutages(db).query(sql, []).catch((e: unknown) => e)) as AdapterError
    expect(error.code).toBe('StoreUnavailable')
    expect(sent).toEqual([sql])
  })

  test('a write during a failover (25006 read-only) is StoreUnavailable', async () => {
    const { db } = scripted(coded('25006', 'cannot execute UPDATE in a read-only transaction'))
    await expect(survivingOutages(db).query('UPDATE sessions SET expires = $1', [])).rejects.toMatchObject({ code: 'StoreUnavailable', status: 503 })
  })

  test('any other failure passes through unchanged, and a read is not sent again for it', async () => {
    const unique = coded('23505')
    const { db, sent } = scripted(unique)
    await expect(survivingOutages(db).query('SELECT 1', [])).rejects.toBe(unique)
    expect(sent).toHaveLength(1)
  })

  test('a retried read that meets another kind of failure gives that failure', async () => {
    const missing = coded('42P01')
    const { db } = scripted(lost(), missing)
    await expect(survivingOutages(db).query('SELECT 1', [])).rejects.toBe(missing)
  })

  test("a transaction's outage is StoreUnavailable and is not run again; end is passed on", async () => {
    const { db, sent } = scripted(coded('ECONNREFUSED'))
    const surviving = survivingOutages(db)
    await expect(surviving.transaction!(async () => 'done')).rejects.toMatchObject({ code: 'StoreUnavailable' })
    expect(sent).toEqual(['BEGIN'])
    await surviving.end!()
    expect(sent).toEqual(['BEGIN', 'END'])
  })
})
