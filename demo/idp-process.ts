/**
 * The Demo IdP in its own process (started by demo/server.ts with `fork`), so that it boots in
 * parallel with the database. Tells its parent `{ issuer }` once listening; stops on SIGINT,
 * SIGTERM or when the parent goes away.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { JWK } from 'jose'
import { makeSigningKey, startIdp } from './idp.js'

const origin = process.env.ORIGIN!

/** The signing key, kept with the data: RSA key generation is slow, and tokens stay verifiable across restarts. */
async function signingKey(file: string | undefined): Promise<JWK | undefined> {
  if (!file) return undefined
  const saved = await readFile(file, 'utf8').then((text) => JSON.parse(text) as JWK, () => undefined)
  if (saved) return saved
  const key = (await makeSigningKey('demo-idp')).private
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify(key), { mode: 0o600 })
  return key
}

const idp = await startIdp({
  signingKey: await signingKey(process.env.IDP_KEY_FILE),
  port: Number(process.env.IDP_PORT ?? 3001),
  clients: [{ client_id: process.env.IDP_CLIENT_ID!, client_secret: process.env.IDP_CLIENT_SECRET!, redirect_uris: [`${origin}/auth/callback/demo-idp`] }],
}).catch((error: Error) => {
  process.send?.({ error: error.message })
  process.exit(1)
})

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await idp.close()
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)
process.on('disconnect', stop)
process.send?.({ issuer: idp.issuer })
