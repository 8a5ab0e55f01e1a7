/** latchkey/react on the server: `loading`, whatever the client says, and nothing of the browser touched. */
import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { useSession } from '../../src/bindings/react.js'
import type { AuthClient } from '../../src/client/index.js'

function Status({ client }: { client: AuthClient | undefined }) {
  const { data, status } = useSession(client)
  return h('p', null, `${status}:${data?.user?.email ?? ''}`)
}

describe('useSession rendered on the server', () => {
  test('is loading, so the first render in the browser matches it', () => {
    expect(typeof window).toBe('undefined')
    // A client that already knows a session: the server snapshot still reads loading.
    const known = { status: 'authenticated', session: { user: { email: 'a@example.com' }, expires: '' }, onSessionChange: () => () => {}, update: async () => null } as unknown as AuthClient
    expect(renderToString(h(Status, { client: known }))).toBe('<p>loading:</p>')
    expect(renderToString(h(Status, { client: undefined }))).toBe('<p>loading:</p>')
  })
})
