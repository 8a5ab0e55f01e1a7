/** oidc-provider ships no types; the Demo IdP uses a small part of it, typed loosely here. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface InteractionDetails {
    uid: string
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> }
    params: Record<string, unknown> & { client_id: string; scope?: string; claims?: string }
    session?: { accountId?: string }
    grantId?: string
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(indicator: string, scope: string): void
    save(): Promise<string>
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>)
    issuer: string
    proxy: boolean
    Grant: new (properties: { accountId: string; clientId: string }) => GrantInstance
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
    on(event: string, listener: (...args: any[]) => void): this
  }
}
