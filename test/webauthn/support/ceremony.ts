/**
 * Server-level ceremonies: options and callbacks go through a cookie jar straight to a handler;
 * only the signing happens in the browser (the virtual authenticator), so tests can keep, replay
 * and redirect the browser's responses.
 */
import type { Page } from 'playwright-core'
import { Jar, type Fetcher } from '../../support/jar.js'

type Action = 'register' | 'authenticate'

declare global {
  interface Window {
    webauthn: typeof import('@simplewebauthn/browser')
  }
}

export class Ceremony {
  readonly jar: Jar
  constructor(
    readonly page: Page,
    handler: Fetcher,
    readonly origin: string,
  ) {
    this.jar = new Jar(handler, origin)
  }

  async options(action: Action, query: Record<string, string> = {}, via?: Fetcher): Promise<{ status: number; body: any; reason: string | null }> {
    const path = `/auth/webauthn-options/passkey?${new URLSearchParams({ action, ...query })}`
    const res = via ? await this.through(via, (jar) => jar.get(path)) : await this.jar.get(path)
    return { status: res.status, body: await res.json(), reason: res.headers.get('latchkey-webauthn-error') }
  }

  /** Has the virtual authenticator answer the options. */
  sign(action: Action, options: unknown): Promise<any> {
    return this.page.evaluate(
      async ([a, o]): Promise<unknown> => (a === 'register' ? window.webauthn.startRegistration({ optionsJSON: o as any }) : window.webauthn.startAuthentication({ optionsJSON: o as any })),
      [action, options] as const,
    )
  }

  async post(action: Action, data: unknown, via?: Fetcher): Promise<{ status: number; body: any; reason: string | null }> {
    const csrfToken = await this.jar.csrf()
    const send = (jar: Jar) => jar.postJson('/auth/callback/passkey', { action, data, csrfToken }, { 'x-auth-return-redirect': '1' })
    const res = via ? await this.through(via, send) : await send(this.jar)
    return { status: res.status, body: await res.json(), reason: res.headers.get('latchkey-webauthn-error') }
  }

  /** options → sign → post, all against the jar's handler. */
  async run(action: Action, query: Record<string, string> = {}) {
    const { body } = await this.options(action, query)
    const data = await this.sign(action, body.options)
    return { data, ...(await this.post(action, data)) }
  }

  async session(): Promise<any> {
    return this.jar.session()
  }

  /** Sends one request through another handler, with the same cookies (and keeping what it sets). */
  private async through<T>(via: Fetcher, run: (jar: Jar) => Promise<T>): Promise<T> {
    const other = new Jar(via, this.origin)
    for (const [k, v] of this.jar.cookies) other.cookies.set(k, v)
    try {
      return await run(other)
    } finally {
      this.jar.cookies.clear()
      for (const [k, v] of other.cookies) this.jar.cookies.set(k, v)
    }
  }
}
