/**
 * The demo tells an account's owner of every new way in (issue "Holes found from outside, round
 * three", item 1): its `events.linkAccount` leaves a notice in the outbox, but not for a new
 * user's first way in.
 */
import { expect, it } from 'vitest'
import { createAuth, demoAccount } from '../../demo/auth.js'
import { settings } from '../../demo/config.js'
import { createOutbox } from '../../demo/outbox.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { followEmailLink } from '../support/email-link.js'
import { Jar } from '../support/jar.js'

it('an email sign-in added to the demo account leaves a notice; a new address\'s first sign-in does not', async () => {
  const outbox = createOutbox()
  const auth = createAuth({ ...settings, origin: 'http://localhost:3000', smtpUrl: undefined }, MemoryAdapter(), 'http://127.0.0.1:9', outbox)
  const jar = new Jar(auth)
  const csrf = async () => jar.csrf()
  expect((await jar.postForm('/auth/callback/credentials', { csrfToken: await csrf(), username: demoAccount.username, password: demoAccount.password })).status).toBe(302)

  const emailIn = async (email: string) => {
    await jar.postForm('/auth/signin/email', { csrfToken: await csrf(), email })
    const link = new URL(outbox.mails.find((m) => m.url && m.to === email)!.url!)
    // The second address is not the signed-in user's: its link asks first, and the click signs in.
    expect((await followEmailLink(jar, link.pathname + link.search)).status).toBe(302)
  }
  await emailIn(demoAccount.user.email)
  const notices = () => outbox.mails.filter((m) => m.text)
  expect(notices()).toEqual([expect.objectContaining({ to: demoAccount.user.email, text: expect.stringMatching(/^Email sign-in was added .* If this was not you/) })])
  expect(outbox.page()).toContain('Email sign-in was added')

  await emailIn('newcomer@example.com')
  expect(notices()).toHaveLength(1)
})
