/** The providers as the application sees them (`AppProvider`). */
import type { AppProvider } from '../../core/types.js'
import type { ResolvedProvider } from '../kernel/config.js'
import type { Context } from '../kernel/context.js'
import { methodOf } from '../kernel/plugin.js'

export function toAppProvider(ctx: Context, provider: ResolvedProvider): AppProvider {
  const app: AppProvider = {
    id: provider.id,
    name: provider.name,
    type: provider.type,
    signinUrl: `${ctx.baseUrl}/signin/${provider.id}`,
    callbackUrl: `${ctx.baseUrl}/callback/${provider.id}`,
  }
  if ('style' in provider && provider.style) app.style = provider.style
  return Object.assign(app, methodOf(ctx.config, provider)?.describe?.(provider))
}

export function appProviders(ctx: Context): Record<string, AppProvider> {
  const out: Record<string, AppProvider> = {}
  for (const p of ctx.config.providers.values()) out[p.id] = toAppProvider(ctx, p)
  return out
}
