/** What the console says once the demo is up: what runs where, and how to sign in. */
import { demoUsers } from './users.js'

export interface ReadyInfo {
  ready: string
  detail: string
  origin: string
  idp: string
  database: string
  email: string
}

export function printReady(info: ReadyInfo): void {
  const { origin } = info
  const lines = [
    '',
    `latchkey demo ready in ${info.ready}  (${info.detail})`,
    '',
    ['App (Vite, npm import)', `${origin}/`],
    ['React page (useSession)', `${origin}/react.html`],
    ['Drop-in page (one script)', `${origin}/drop-in.html`],
    ['Email outbox', `${origin}/outbox`],
    ['latchkey server', `${origin}/auth`],
    ['Session worker', `${origin}/latchkey-sw.js  (scope /)`],
    ['Demo IdP (OpenID Connect)', `${info.idp}  (child process)`],
    ['Database', info.database],
    ['Email', info.email],
    '',
    ['Sign in with', 'demo / demo (credentials)'],
    ['', `${demoUsers.map((u) => `${u.email} / ${u.password}`).join(', ')} (Demo IdP)`],
    ['', 'any email (the link lands in the outbox), or a passkey (on localhost, not 127.0.0.1)'],
    '',
    'Press Ctrl-C to stop; the data stays in place.',
  ]
  for (const line of lines) console.log(typeof line === 'string' ? line : `  ${line[0].padEnd(26)} ${line[1]}`)
}
