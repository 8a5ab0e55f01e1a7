/**
 * Type test for the app's side: the session type follows the `session` callback's return through
 * `getSession`, `requireSession` and `withSession`. Compiled by `tsc --noEmit` in `npm test`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Latchkey, withSession, type Session, type SessionOf } from '../../src/server/index.js'
import { getSession, requireSession, type RequestWithSession } from '../../src/node/index.js'

const typed = Latchkey({
  secret: 'x'.repeat(32),
  providers: [],
  callbacks: { session: ({ session }) => ({ ...session, role: 'admin' as 'admin' | 'member', teamId: 7 }) },
})

export async function readsTheCallbackShape(request: Request): Promise<void> {
  const session = await typed.getSession(request)
  if (!session) return
  const role: 'admin' | 'member' = session.role
  const team: number = session.teamId
  // @ts-expect-error the callback answers a number, not a string
  const wrong: string = session.teamId
  void [role, team, wrong]
}

export const api = withSession(typed, (_request, session) => Response.json({ team: session.teamId + 1, role: session.role }))

export function express(req: IncomingMessage): void {
  requireSession(typed)
  const team: number = (req as RequestWithSession<SessionOf<typeof typed>>).session.teamId
  void team
}

// Without a session callback: the plain Session.
const plain = Latchkey({ secret: 'x'.repeat(32), providers: [] })
export async function plainSession(request: Request): Promise<Session | null> {
  const session = await plain.getSession(request)
  // @ts-expect-error no callback added `role`, so it is unknown, not a string
  const role: string | undefined = session?.role
  void role
  return session
}

// auth.getSession takes a Web Request and Headers; a node request goes through latchkey/node's getSession, with the same type.
export async function bindings(request: Request, req: IncomingMessage, res: ServerResponse, headers: Headers): Promise<void> {
  await typed.getSession(request, headers)
  // @ts-expect-error a node request is no Web Request: getSession(auth, req, res) from latchkey/node reads it
  await typed.getSession(req, headers)
  // @ts-expect-error a string is not a response
  await typed.getSession(request, 'set-cookie')
  const session = await getSession(typed, req, res)
  const team: number | undefined = session?.teamId
  void team
}
