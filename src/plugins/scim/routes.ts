/**
 * /scim/v2/...: one route under basePath taking the rest of the path. The bearer token names the
 * organization, so no path names one and no id of another organization can be reached. Every
 * failure answers a SCIM error body; one that is not a SCIM failure is logged and answered 500.
 */
import { AuthError, enforceRateLimit, type Action, type Context, type Reply } from 'latchkey/server'
import { resourceTypesReply, schemasReply, serviceProviderConfig } from './discovery.js'
import { ScimError } from './errors.js'
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './groups.js'
import { callerOfToken, errorReply } from './http.js'
import type { ResolvedScim } from './options.js'
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './users.js'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Counted per token (plugin.ts declares the rule); a refusal is a SCIM error, with Retry-After. */
export const requestAction = 'scimRequest'

async function limited(ctx: Context, tokenId: string): Promise<void> {
  try {
    await enforceRateLimit(ctx.config.rateLimit, ctx.request, requestAction, tokenId, ctx.now)
  } catch (error) {
    if (error instanceof AuthError && error.retryAfter !== undefined) throw new ScimError(error.status, error.message, undefined, error.retryAfter)
    throw error
  }
}

function segments(rest: string | undefined): string[] | null {
  if (!rest) return []
  try {
    return rest.split('/').map(decodeURIComponent)
  } catch {
    return null
  }
}

async function dispatch(ctx: Context, options: ResolvedScim, method: Method, rest: string | undefined): Promise<Reply> {
  const parts = segments(rest)
  if (!parts || parts[0] !== 'v2' || parts.length > 3 || parts.some((p) => !p || p.length > 200)) throw new ScimError(404, 'Expected /scim/v2/ followed by Users, Groups, ServiceProviderConfig, ResourceTypes or Schemas')
  const [, kind, id] = parts
  const refuse = () => new ScimError(405, `This endpoint does not take ${method}`)
  // The discovery endpoints describe the server, not an organization: no token needed (RFC 7644 §4).
  if (kind === 'ServiceProviderConfig' && !id) {
    if (method !== 'GET') throw refuse()
    return serviceProviderConfig(ctx, options)
  }
  if (kind === 'ResourceTypes' || kind === 'Schemas') {
    if (method !== 'GET') throw refuse()
    return kind === 'Schemas' ? schemasReply(ctx, id) : resourceTypesReply(ctx, id)
  }
  if (kind !== 'Users' && kind !== 'Groups') throw new ScimError(404, 'Expected /scim/v2/ followed by Users, Groups, ServiceProviderConfig, ResourceTypes or Schemas')
  const caller = await callerOfToken(ctx)
  await limited(ctx, caller.token.id)
  const org = caller.organization.id
  const users = kind === 'Users'
  if (id === undefined) {
    if (method === 'GET') return users ? listUsers(ctx, options, org) : listGroups(ctx, options, org)
    if (method === 'POST') return users ? createUser(ctx, options, caller) : createGroup(ctx, options, caller)
    throw refuse()
  }
  switch (method) {
    case 'GET':
      return users ? getUser(ctx, org, id) : getGroup(ctx, org, id)
    case 'PUT':
      return users ? replaceUser(ctx, options, caller, id) : replaceGroup(ctx, options, caller, id)
    case 'PATCH':
      return users ? patchUser(ctx, options, caller, id) : patchGroup(ctx, options, caller, id)
    case 'DELETE':
      return users ? deleteUser(ctx, caller, id) : deleteGroup(ctx, options, caller, id)
    default:
      throw refuse()
  }
}

const route = (options: ResolvedScim, method: Method) => async (ctx: Context, rest: string | undefined) => {
  try {
    return await dispatch(ctx, options, method, rest)
  } catch (error) {
    if (error instanceof ScimError) {
      if (error.status >= 400 && error.status !== 404) ctx.config.logger.warn(`SCIM ${error.status}${error.scimType ? ` ${error.scimType}` : ''}: ${error.message}`)
      return errorReply(ctx, error)
    }
    throw error
  }
}

export const scimAction = (options: ResolvedScim): Action => ({
  subpath: true,
  wordless: true,
  GET: route(options, 'GET'),
  POST: route(options, 'POST'),
  PUT: route(options, 'PUT'),
  PATCH: route(options, 'PATCH'),
  DELETE: route(options, 'DELETE'),
})
