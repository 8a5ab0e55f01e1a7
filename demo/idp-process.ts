/**
 * The Demo IdP in its own process: started by demo/server.ts with `fork`, so that it boots in
 * parallel with the database, or on its own with `npm run idp` for an app of your own
 * (docs/guides/local-openid-provider.md). Tells its parent `{ issuer }` once listening, or prints
 * how to use it when run on its own; stops on SIGINT, SIGTERM or when the parent goes away.
 *
 * Environment: IDP_PORT (3001), ORIGIN (the app's, http://localhost:3000), IDP_REDIRECT_URI
 * (default <ORIGIN>/auth/callback/demo-idp), IDP_CLIENT_ID and IDP_CLIENT_SECRET (the demo's),
 * IDP_KEY_FILE (where to keep the signing key; default a fresh key each start).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { JWK } from 'jose'
import { settings } from './config.js'
import { demoUsers, makeSigningKey, startIdp } from './idp.js'

const origin = process.env.ORIGIN ?? settings.origin
const client = {
  client_id: process.env.IDP_CLIENT_ID ?? settings.idpClient.client_id,
  client_secret: process.env.IDP_CLIENT_SECRET ?? settings.idpClient.client_secret,
  redirect_uris: [process.env.IDP_REDIRECT_URI ?? `${origin}/auth/callback/demo-idp`],
}

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
  port: settings.idpPort,
  clients: [client],
}).catch((error: Error) => {
  if (process.send) process.send({ error: error.message })
  else console.error(`The Demo IdP could not start: ${error.message}${/EADDRINUSE/.test(error.message) ? ' (set IDP_PORT to use another port)' : ''}`)
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
if (process.send) process.send({ issuer: idp.issuer })
else {
  const lines = [
    `Demo IdP (OpenID Connect) ready`,
    ``,
    `  issuer         ${idp.issuer}`,
    `  client id      ${client.client_id}`,
    `  client secret  ${client.client_secret}`,
    `  redirect URI   ${client.redirect_uris[0]}  (set ORIGIN or IDP_REDIRECT_URI for another)`,
    `  users          ${demoUsers.map((u) => `${u.email} / ${u.password}`).join(', ')}`,
    ``,
    `Press Ctrl-C to stop.`,
  ]
  console.log(lines.join('\n'))
}
