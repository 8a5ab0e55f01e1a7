/**
 * Every server example under examples/ is started and used over HTTP as its guide says: the
 * notes API answers 401 signed out, the signed-in user's notes signed in, another user's never,
 * and 401 again after sign-out. Each main.ts runs as the guide runs it, and drains on SIGTERM.
 */
import { spawn } from 'node:child_process'
import type { Server } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { getRequestListener } from '@hono/node-server'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp as expressApp } from '../../examples/express/app.js'
import { createApp as honoApp } from '../../examples/hono/app.js'
import { createApp as nodeApp } from '../../examples/node-http/app.js'
import { freePort } from '../support/free-port.js'
import { Jar } from '../support/jar.js'

const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))))

async function listen(server: Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const examples: Record<string, () => Server> = {
  express: () => createServer(expressApp()),
  hono: () => createServer(getRequestListener(honoApp().fetch)),
  'node-http': () => nodeApp(),
}

async function signIn(jar: Jar, username: string): Promise<void> {
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: 'demo' })
  expect(res.status).toBe(302)
}

describe.each(Object.keys(examples))('examples/%s', (name) => {
  it('keeps each user\'s notes behind the session', async () => {
    const base = await listen(examples[name]())
    const ada = new Jar((r) => fetch(r), base)
    const signedOut = await ada.get('/api/notes')
    expect(signedOut.status).toBe(401)
    expect(await signedOut.json()).toEqual({ error: 'Unauthorized' })

    await signIn(ada, 'ada')
    expect(await (await ada.get('/api/notes')).json()).toEqual([])
    const added = await ada.postJson('/api/notes', { text: 'buy milk' })
    expect(added.status).toBe(201)
    expect(await (await ada.get('/api/notes')).json()).toEqual(['buy milk'])
    expect((await ada.postJson('/api/notes', { text: 7 })).status).toBe(400)

    const bob = new Jar((r) => fetch(r), base)
    await signIn(bob, 'bob')
    expect(await (await bob.get('/api/notes')).json()).toEqual([])
    expect((await bob.postJson('/api/notes', { nope: 1 })).status).toBe(400)

    const out = await ada.postForm('/auth/signout', { csrfToken: await ada.csrf() })
    expect(out.status).toBe(302)
    expect((await ada.get('/api/notes')).status).toBe(401)
    expect((await bob.get('/api/notes')).status).toBe(200)
  })

  it('a forged cookie or a malformed body never gets a 500', async () => {
    const base = await listen(examples[name]())
    const jar = new Jar((r) => fetch(r), base)
    expect((await jar.get('/api/notes', { cookie: 'latchkey.session-token=forged' })).status).toBe(401)
    await signIn(jar, 'carol')
    const bad = await jar.request('/api/notes', { method: 'POST', body: '{not json', headers: { 'content-type': 'application/json' } })
    expect(bad.status).toBeGreaterThanOrEqual(400)
    expect(bad.status).toBeLessThan(500)
    expect(await bad.text()).not.toMatch(/\bat .*\(|node_modules/)
  })
})

describe('main.ts', () => {
  it.concurrent.each(Object.keys(examples))('examples/%s/main.ts listens on PORT; on SIGTERM readiness fails while it still answers, then it exits 0', async (name) => {
    const port = await freePort()
    const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}/main.ts`], { cwd: new URL('../..', import.meta.url).pathname, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => line.includes(`http://localhost:${port}`) && resolve())
        void exited.then((code) => reject(new Error(`examples/${name}/main.ts exited with ${code} before listening`)))
      })
      const base = `http://127.0.0.1:${port}/auth/health`
      expect((await fetch(`${base}/ready`)).status).toBe(200)
      child.kill('SIGTERM')
      await expect.poll(async () => (await fetch(`${base}/ready`)).status, { interval: 50 }).toBe(503)
      expect((await fetch(`${base}/live`)).status).toBe(200)
      expect(await exited).toBe(0)
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})
