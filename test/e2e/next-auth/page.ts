/**
 * The test page's script: an app as next-auth's docs write it, `<SessionProvider>` around a
 * component that calls `useSession()`, pointed at latchkey under /auth. The page puts next-auth's
 * own functions on `window.nextAuth` for the test to call, and shows `status email name`.
 */
import * as React from 'react'
import { createRoot } from 'react-dom/client'

/** What both majors of `next-auth/react` export and the test uses. */
export interface NextAuthReact {
  SessionProvider: React.ComponentType<{ basePath?: string; children?: React.ReactNode }>
  useSession(): { data: { user?: { email?: string | null; name?: string | null } } | null; status: string; update(data?: unknown): Promise<unknown> }
  signIn(provider?: string, options?: Record<string, unknown>): Promise<unknown>
  signOut(options?: Record<string, unknown>): Promise<unknown>
  getSession(): Promise<unknown>
}

export interface NextAuthWindow {
  signIn: NextAuthReact['signIn']
  signOut: NextAuthReact['signOut']
  getSession: NextAuthReact['getSession']
  update: (data?: unknown) => Promise<unknown>
}

export function mount(client: NextAuthReact): void {
  function Probe() {
    const { data, status, update } = client.useSession()
    ;(window as unknown as { nextAuth: NextAuthWindow }).nextAuth = { signIn: client.signIn, signOut: client.signOut, getSession: client.getSession, update }
    return React.createElement('output', { id: 'status' }, `${status} ${data?.user?.email ?? '-'} ${data?.user?.name ?? '-'}`)
  }
  const root = createRoot(document.getElementById('root')!)
  root.render(React.createElement(client.SessionProvider, { basePath: '/auth' }, React.createElement(Probe)))
}
