/**
 * The demo's call to a provider's API with the user's provider token: `/api/idp-profile` asks
 * latchkey for the Demo IdP access token of the signed-in user (refreshed when it is about to
 * expire) and reads the IdP's userinfo with it, as an app calls GitHub's or Google's API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { toRequest } from '../src/node/index.js'
import { AccessTokenError, type LatchkeyHandler } from '../src/server/index.js'

/** What each failure means to the user, by `AccessTokenError` code. */
const meaning: Record<string, [number, string]> = {
  'no-account': [404, 'Connect the Demo IdP first (or sign in).'],
  'no-refresh-token': [409, 'The token expired and the IdP gave no refresh token: sign in with the Demo IdP again.'],
  refused: [409, 'The Demo IdP refused the refresh token: sign in with it again.'],
  network: [502, 'The Demo IdP could not be reached.'],
}

export function createProviderApi(auth: LatchkeyHandler, issuer: () => string) {
  let userinfo: Promise<string> | undefined
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let token: string
    try {
      token = await auth.getAccessToken(toRequest(req), { provider: 'demo-idp' })
    } catch (e) {
      if (!(e instanceof AccessTokenError)) throw e
      const [status, message] = meaning[e.code]
      return json(res, status, { error: e.code, message })
    }
    try {
      userinfo ??= fetch(`${issuer()}/.well-known/openid-configuration`).then(async (r) => ((await r.json()) as { userinfo_endpoint: string }).userinfo_endpoint)
      const answer = await fetch(await userinfo, { headers: { authorization: `Bearer ${token}` } })
      if (!answer.ok) return json(res, 502, { error: 'provider', message: `The Demo IdP's userinfo answered ${answer.status}` })
      json(res, 200, { profile: await answer.json() })
    } catch {
      userinfo = undefined
      json(res, 502, { error: 'network', message: meaning.network[1] })
    }
  }
}
