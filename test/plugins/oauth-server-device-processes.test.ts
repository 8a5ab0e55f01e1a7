/**
 * The device grant and DPoP across two servers on one PostgreSQL (DATABASE_URL): a DPoP proof
 * used at one is a replay at the other; polls reaching both count as one device's (slow_down);
 * an allowed device code gives tokens once even when both see it at the same instant.
 */
import * as oauth from 'oauth4webapi'
import { afterAll, describe, expect, it } from 'vitest'
import { migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { createIsolatedSchema } from '../adapters/isolated-schema.js'
import { needsService } from '../support/needs-service.js'
import { browser } from './oauth-server-support.js'
import { answerOnPage, deviceServer, poll, pollResult, proof, serviceToken, startDevice } from './oauth-server-device-support.js'

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const url = needsService('DATABASE_URL', 'the authorization server on PostgreSQL', 'postgres://postgres@127.0.0.1:5432/test', 'test/plugins/oauth-server-device-processes.test.ts')

describe.runIf(url)('two servers on one PostgreSQL', () => {
  async function pair() {
    const schema = await createIsolatedSchema(url!)
    closers.push(() => schema.drop())
    const clock = { now: Date.now() }
    const make = () => {
      const pool = schema.pgPool(3)
      closers.push(() => pool.end())
      return deviceServer({}, {}, { clock, store: (plugin) => PostgresAdapter(pool, { plugins: [plugin] }) })
    }
    const [a, b] = [make(), make()]
    await migrate(PostgresAdapter(schema.pgPool(1)).db, { plugins: [a.plugin] })
    return { a, b, clock }
  }

  it('a DPoP proof used at one server is refused as a replay at the other', async () => {
    const { a, b } = await pair()
    const keys = await oauth.generateKeyPair('ES256')
    const once = await proof(keys)
    expect(await (await serviceToken(a, once)).json()).toMatchObject({ token_type: 'DPoP' })
    expect(await (await serviceToken(b, once)).json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('used already') })
    // The same proof at both at once: one wins.
    const both = await proof(keys)
    const answers = await Promise.all([serviceToken(a, both), serviceToken(b, both)])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400])
  })

  it('polls at two servers count as one device’s: slow_down; the allowed code gives tokens once, even polled at both at the same instant', async () => {
    const { a, b, clock } = await pair()
    const as = await a.as()
    const started = await startDevice(a, as)
    expect(await pollResult(a, as, started.device_code)).toBe('authorization_pending')
    expect(await pollResult(b, as, started.device_code)).toBe('slow_down')
    await answerOnPage(await browser(b), started.user_code)
    clock.now += 11_000
    const answers = await Promise.all([poll(a, as, started.device_code), poll(b, as, started.device_code)])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400])
    clock.now += 20_000
    expect(await pollResult(a, as, started.device_code)).toBe('invalid_grant')
    expect(await pollResult(b, as, started.device_code)).toBe('invalid_grant')
  })
})
