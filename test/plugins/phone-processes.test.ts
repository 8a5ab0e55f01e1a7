/**
 * Two server processes with the phone plugin on one PostgreSQL database: a code's five tries are
 * counted in the store, so guesses spread over both servers, in turn or all at once, get five in
 * all, not five each; and a code sent by one server signs in on the other.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { startPluginProcess, stopPluginProcess, type PluginProcess } from '../support/plugin-process.js'

const url = needsService('DATABASE_URL', 'phone sign-in across two processes', 'postgres://postgres@127.0.0.1:5432/test', 'test/plugins/phone-processes.test.ts')
const script = new URL('./phone-server.ts', import.meta.url).pathname
const asJson = { 'x-auth-return-redirect': '1' }

type ServerProcess = PluginProcess
const start = (env: Record<string, string>) => startPluginProcess(script, env)
const stop = stopPluginProcess

if (url) {
  describe('phone sign-in, two server processes, one PostgreSQL database', () => {
    let schema: IsolatedSchema
    let a: ServerProcess
    let b: ServerProcess
    const fetcher = (request: Request) => fetch(request, { redirect: 'manual' })

    beforeAll(async () => {
      schema = await createIsolatedSchema(url)
      const env = { DATABASE_URL: url, LATCHKEY_TEST_SCHEMA: schema.name, AUTH_SECRET: 'phone-processes-secret-0123456789-abcdef' }
      // One migrates the empty schema first: the other then finds it done.
      a = await start(env)
      b = await start(env)
    }, 60_000)
    afterAll(async () => {
      await Promise.all([stop(a), stop(b)])
      await schema?.drop()
    })

    /** Asks `server` for a code for `phone`; answers the code, once that server has texted it. */
    async function codeFrom(server: ServerProcess, jar: Jar, phone: string): Promise<string> {
      const before = server.sent.length
      const res = await jar.postForm(`${server.origin}/auth/signin/phone`, { csrfToken: await jar.csrf(), phone }, asJson)
      expect(res.status).toBe(200)
      await expect.poll(() => server.sent.length).toBe(before + 1)
      expect(server.sent.at(-1)!.to).toBe(phone)
      return server.sent.at(-1)!.text.slice(0, 6)
    }

    async function guess(server: ServerProcess, jar: Jar, phone: string, code: string): Promise<string | null> {
      const res = await jar.postForm(`${server.origin}/auth/callback/phone`, { csrfToken: await jar.csrf(), phone, code }, asJson)
      const body = (await res.json()) as { url: string; error?: string }
      return body.error ?? null
    }

    const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

    test('a code sent by A signs in on B, and the session is read on both', async () => {
      const jar = new Jar(fetcher, a.origin)
      const phone = '+14155550101'
      const code = await codeFrom(a, jar, phone)
      expect(b.sent).toEqual([])
      expect(await guess(b, jar, phone, code)).toBeNull()
      const onA = await (await jar.get(`${a.origin}/auth/session`)).json()
      const onB = await (await jar.get(`${b.origin}/auth/session`)).json()
      expect(onA.user.id).toBe(onB.user.id)
      expect(onA.amr).toEqual(['sms'])
    })

    test('wrong guesses taken in turn on A and B: five in all burn the code', async () => {
      const jar = new Jar(fetcher, a.origin)
      const phone = '+14155550102'
      const code = await codeFrom(a, jar, phone)
      const answers = []
      for (const server of [a, b, a, b, a]) answers.push(await guess(server, jar, phone, wrongFor(code)))
      expect(answers).toEqual(['InvalidCode', 'InvalidCode', 'InvalidCode', 'InvalidCode', 'TooManyAttempts'])
      // The right code, on either server, no longer works.
      expect(await guess(b, jar, phone, code)).toBe('TooManyAttempts')
      expect(await guess(a, jar, phone, code)).toBe('TooManyAttempts')
      expect(await (await jar.get(`${a.origin}/auth/session`)).json()).toBeNull()
    })

    test('sixteen wrong guesses at once, eight on each server, then the right code: refused', async () => {
      const jar = new Jar(fetcher, b.origin)
      const phone = '+14155550103'
      const code = await codeFrom(b, jar, phone)
      // Each browser guesses one code of its own: every guess but the right one. (Sixteen: with the
      // other tests, this client stays under its 30 guesses in 15 minutes.)
      const guesses = Array.from({ length: 16 }, (_, i) => String(100000 + i)).filter((g) => g !== code)
      const answers = await Promise.all(guesses.map((g, i) => guess(i % 2 ? a : b, new Jar(fetcher, a.origin), phone, g)))
      expect(answers.every((e) => e === 'InvalidCode' || e === 'TooManyAttempts')).toBe(true)
      // At most four of them were told "not right, try again": the fifth wrong one burned it.
      expect(answers.filter((e) => e === 'InvalidCode').length).toBeLessThanOrEqual(4)
      expect(await guess(a, jar, phone, code)).toBe('TooManyAttempts')
      expect(await guess(b, jar, phone, code)).toBe('TooManyAttempts')
    })
  })
}
