/**
 * Opening latchkey's JWT-session token (JWE dir + A256GCM), the same tokens both ways: jose on
 * Web Crypto (the path on runtimes without node:crypto) against node:crypto's synchronous AES-GCM
 * (src/server/kernel/jwe-node.ts, the path on Node). Part of `server-speed`.
 */
import { jwtDecrypt } from 'jose'
import { deriveKey } from '../src/server/kernel/crypto.js'
import { openWithNode } from '../src/server/kernel/jwe-node.js'
import { seal } from '../src/server/kernel/jwt.js'

export async function jweOpen(users: number, rounds = 50_000): Promise<string> {
  const secret = 'bench-secret-0123456789-abcdefghij-klmnop'
  const salt = 'latchkey.session-token'
  const now = Math.floor(Date.now() / 1000)
  const tokens = await Promise.all(Array.from({ length: users }, (_, i) => seal({ sub: `user-${i}`, name: `User ${i}`, email: `u${i}@bench.example`, picture: null, auth_time: now }, [secret], salt, { now, expires: now + 3600 })))
  const key = await deriveKey(secret, salt)
  const options = { currentDate: new Date(now * 1000), clockTolerance: 0, keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] }
  let wrong = 0
  let t = performance.now()
  for (let i = 0; i < rounds; i++) if ((await jwtDecrypt(tokens[i % users], key, options)).payload.sub !== `user-${i % users}`) wrong++
  const web = ((performance.now() - t) * 1000) / rounds
  t = performance.now()
  for (let i = 0; i < rounds; i++) if (openWithNode(tokens[i % users], secret, salt, now)?.sub !== `user-${i % users}`) wrong++
  const node = ((performance.now() - t) * 1000) / rounds
  return `opening a JWT-session token, ${users.toLocaleString('en')} distinct tokens, ${rounds.toLocaleString('en')} opens each way: jose + Web Crypto ${web.toFixed(1)} µs, node:crypto AES-GCM ${node.toFixed(1)} µs (${(web / node).toFixed(1)}x), ${wrong} wrong`
}
